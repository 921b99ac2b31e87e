/**
 * Starts the built-in demo next to an in-process hub (the desktop app's, or `serve --demo`'s), in
 * the background: the UI opens at once and the demo's panel appears when its agent is up. A demo that cannot start
 * is reported, never fatal. Returns the function that stops it.
 */
import type { RunningHub } from "../hub/hub-server.js";
import { defaultDataDir } from "../peers/default-data-dir.js";
import { BuiltInDemo } from "./built-in-demo.js";

/** Where the demo runs from. */
export interface DemoBesideHubOptions {
  /** The CLI bundle (`dist/cli.js`). */
  readonly cliPath: string;
  /** Default: the per-user data folder + `/demo`. */
  readonly dataDir?: string;
  readonly turnMs?: number;
  readonly attemptTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /** Called once the demo is attached, with its state (`ready` or `failed`). */
  readonly onStarted?: (demo: BuiltInDemo) => void;
}

/** Starts the demo beside `hub`; the result stops it (and waits for it to start first). */
export function startDemoBesideHub(hub: RunningHub, options: DemoBesideHubOptions): () => Promise<void> {
  const starting = BuiltInDemo.start({
    hub,
    cliPath: options.cliPath,
    dataDir: options.dataDir ?? defaultDataDir("demo"),
    turnMs: options.turnMs,
    attemptTimeoutMs: options.attemptTimeoutMs,
    log: options.log,
  }).then(
    (demo) => {
      hub.attachDemo(demo);
      options.onStarted?.(demo);
      return demo;
    },
    (err: unknown) => {
      options.log?.(`the built-in demo did not start: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    },
  );
  return async () => {
    await (await starting)?.close();
  };
}
