/**
 * What the app core publishes to the UI. Every event carries a `seq` that only grows for the life
 * of the core, so a late or reconnecting subscriber asks for "everything after seq N" and gets
 * exactly what it missed. Events cross a process boundary in batches, never one by one.
 */
import type { TraceRecord } from "../trace/record.js";

/** How the app core is doing, as the toolbar shows it. */
export interface AppStatus {
  /** True while recording to the UI is paused (the trace on disk keeps everything). */
  readonly paused: boolean;
  /** The agent process, when the core runs one. */
  readonly agent: "running" | "stopped" | "none";
  /** How many ACP clients are connected through the tap. */
  readonly clients: number;
  /** A short label of what is being inspected, e.g. `built-in demo` or the agent command. */
  readonly label: string;
}

/** One event from the app core. */
export type AppEvent =
  | { readonly seq: number; readonly kind: "record"; readonly record: TraceRecord }
  | { readonly seq: number; readonly kind: "status"; readonly status: AppStatus }
  | { readonly seq: number; readonly kind: "cleared" };

/** Events sent together; `gap` is true when the subscriber asked for events the core no longer holds. */
export interface EventBatch {
  readonly events: readonly AppEvent[];
  readonly gap: boolean;
}
