/**
 * Starts what the Electron shell talks to: the hub, in-process, and the `AppCore` adapter over it.
 * Proxies find this hub through the rendezvous file like they find `serve`.
 */
import {
  type ConformanceBesideHubOptions,
  startConformanceBesideHub,
} from "../conformance/conformance-beside-hub.js";
import { startDemoBesideHub } from "../demo/demo-beside-hub.js";
import { startHub } from "../hub/hub-server.js";
import { defaultTracesDir, rendezvousPath } from "../hub-client/hub-paths.js";
import { readRendezvous } from "../hub-client/rendezvous.js";
import type { AppCore } from "./app-core.js";
import { createHubCore } from "./hub-core.js";

/** Where the hub keeps its files; the defaults are the ones `serve` uses. */
export interface StartAppOptions {
  /** Where each tap's trace is written (default: the per-user state folder). */
  readonly tracesDir?: string;
  /** The rendezvous file to publish; default: the per-user one, unless a live hub already holds it. */
  readonly rendezvousPath?: string | null;
  /** Reports what happened, e.g. that another hub already owns the rendezvous file. */
  readonly log?: (line: string) => void;
  /** Run the built-in demo (docs/demo.md) from this CLI bundle; omitted: no demo. */
  readonly demo?: { readonly cliPath: string };
  /** Offer conformance runs to the UI (docs/conformance.md); omitted: none. */
  readonly conformance?: ConformanceBesideHubOptions;
}

/** Starts the in-process hub and returns the core over it; `close()` stops the hub. */
export async function startApp(options: StartAppOptions = {}): Promise<AppCore> {
  let rendezvous = options.rendezvousPath === undefined ? rendezvousPath() : options.rendezvousPath;
  if (rendezvous) {
    const existing = readRendezvous(rendezvous);
    if (existing.kind === "live") {
      // Never take over another live hub's file: proxies keep reporting to that one.
      options.log?.(`another hub (pid ${existing.hub.pid}) owns ${rendezvous}; this one is not advertised`);
      rendezvous = null;
    } else if (existing.kind === "untrusted") {
      options.log?.(`${existing.reason}; this hub is not advertised`);
      rendezvous = null;
    }
  }
  const hub = await startHub({
    tracesDir: options.tracesDir ?? defaultTracesDir(),
    ...(rendezvous ? { rendezvousPath: rendezvous } : {}),
  });
  const stopDemo = options.demo
    ? startDemoBesideHub(hub, { ...options.demo, log: options.log })
    : async () => {};
  const stopConformance = options.conformance
    ? startConformanceBesideHub(hub, { ...options.conformance, log: options.log })
    : async () => {};
  return createHubCore({
    port: hub.port,
    token: hub.token,
    ...(rendezvous ? { tokenFile: rendezvous } : {}),
    onClose: () => Promise.all([stopDemo(), stopConformance()]).then(() => hub.close()),
  });
}
