/**
 * A real `acp-retry-inspector serve` for browser tests and the UI bench: its own traces and
 * rendezvous folders, the built renderer, the URL read from its first stdout line. `cli()` runs
 * other commands (`fault ...`) against the same hub; `spawnCli()` starts long-running ones (a
 * `proxy` that finds this hub through its rendezvous file).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { takeFragmentToken } from "../../shared/hub/hub-auth.js";
import { cliPath as builtCli, rendererDir as builtRenderer } from "./build-once.js";

/** A running `serve`. */
export interface ServeProcess {
  /** The UI link as `serve` printed it, its token in the fragment (`/#token=…`). */
  readonly url: string;
  /** The hub's address without the token (`http://127.0.0.1:PORT/`). */
  readonly bareUrl: string;
  readonly port: number;
  readonly token: string;
  /** Runs the CLI with the hub's environment; resolves with its exit code and output. */
  cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Spawns the CLI with the hub's environment and piped stdio; `stop()` kills it if still running. */
  spawnCli(args: readonly string[]): ChildProcess;
  /**
   * Spawns a stdio tap of this hub named `name` (`proxy --name NAME --trace <scratch>/NAME.jsonl
   * ...proxyArgs -- demo-agent ...agentArgs --store <scratch>/STORE --turn-ms N`), the test its client.
   */
  spawnDemoTap(name: string, options?: DemoTapOptions): ChildProcess;
  /** A scratch path inside the hub's folder (removed by `stop()`). */
  scratch(name: string): string;
  stop(): Promise<void>;
}

/** How `spawnDemoTap` runs the proxy and its demo agent. */
export interface DemoTapOptions {
  /** Flags for `proxy` before its `--`. */
  readonly proxyArgs?: readonly string[];
  /** Flags for `demo-agent` before its `--store`. */
  readonly agentArgs?: readonly string[];
  /** The demo agent's session store, a scratch name (default `store`). */
  readonly store?: string;
  /** The demo agent's `--turn-ms` (default 100). */
  readonly turnMs?: number;
}

/** Starts `serve` and resolves once it printed its URL (within `timeoutMs`). */
/**
 * `extraArgs` go after the harness's own (e.g. `--demo`); the demo's files stay in the scratch
 * folder. `extraEnv(dir)` adds variables for `serve` and the CLI, given the scratch folder.
 * `checkout`: another built checkout of the project whose `dist/cli.js` and `dist/renderer` run
 * instead of this one's (the UI bench's side-by-side baseline); default: this checkout's build.
 */
export async function startServe(
  timeoutMs = 15_000,
  extraArgs: readonly string[] = [],
  extraEnv: (dir: string) => Record<string, string> = () => ({}),
  checkout?: string,
): Promise<ServeProcess> {
  const cliPath = checkout === undefined ? builtCli : join(checkout, "dist", "cli.js");
  const rendererDir = checkout === undefined ? builtRenderer : join(checkout, "dist", "renderer");
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-e2e-"));
  const env = {
    ...process.env,
    ...extraEnv(dir),
    ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "run"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CONFIG_HOME: join(dir, "config"),
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      cliPath,
      "serve",
      "--ui-dir",
      rendererDir,
      "--traces-dir",
      join(dir, "traces"),
      ...(extraArgs.includes("--demo") ? ["--demo-dir", join(dir, "demo")] : []),
      ...extraArgs,
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL; stderr: ${stderr}`)), timeoutMs);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const u = new URL(url);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawned: ChildProcess[] = [];
  const spawnCli = (args: readonly string[]): ChildProcess => {
    const c = spawn(process.execPath, [cliPath, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    spawned.push(c);
    return c;
  };
  return {
    url,
    bareUrl: `${u.origin}/`,
    port: Number(u.port),
    token: takeFragmentToken(u.hash).token ?? "",
    cli: (args) =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [cliPath, ...args],
          { env, timeout: 15_000 },
          (err, stdout, stderrText) => {
            const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
            resolve({ code, stdout, stderr: stderrText });
          },
        );
      }),
    spawnCli,
    spawnDemoTap(name, options = {}) {
      return spawnCli([
        "proxy",
        "--name",
        name,
        ...(options.proxyArgs ?? []),
        "--trace",
        join(dir, `${name}.jsonl`),
        "--",
        process.execPath,
        cliPath,
        "demo-agent",
        ...(options.agentArgs ?? []),
        "--store",
        join(dir, options.store ?? "store"),
        "--turn-ms",
        String(options.turnMs ?? 100),
      ]);
    },
    scratch: (name) => join(dir, name),
    async stop() {
      for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
