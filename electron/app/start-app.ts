/**
 * Starts the app core the shells talk to. This is the one place that decides what runs behind
 * the UI: today the placeholder core, once merged the hub (one edit here).
 */
import type { AppCore } from "./app-core.js";
import { createPlaceholderCore } from "./placeholder-core.js";

/** What to inspect and how to label it. */
export interface StartAppOptions {
  /** Run the built-in demo (agent and client peers with faults) instead of a user's agent. */
  readonly demo: boolean;
  /** The tool name and version, e.g. `acp-retry-inspector 0.1.0`. */
  readonly tool: string;
}

/** Starts the in-process app core for a shell (the Electron main process or `serve`). */
export async function startApp(options: StartAppOptions): Promise<AppCore> {
  // TEMPORARY: replace with the hub once it is merged (it runs the demo peers when `demo` is set).
  return createPlaceholderCore({
    label: options.demo ? "built-in demo (not wired yet)" : "no agent",
    tool: options.tool,
  });
}
