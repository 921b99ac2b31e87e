/**
 * Fetches the hub's trace files after a ring gap and rebuilds each trace off screen; the pump swaps
 * the rebuilt traces in (with the live events that arrived meanwhile) when the batch comes back.
 */
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import type { LoadedTrace } from "../traces/loaded-trace.js";
import {
  type PendingReloads,
  type RebuiltTrace,
  type ReloadFailure,
  rebuildTrace,
} from "../traces/trace-reload.js";

/** What a reload needs from the bridge: the hub's trace list, and its files with large frames as previews (as live). */
export type TraceFiles = Pick<InspectorBridge, "readTracePreviews" | "listTraces">;

/** One rebuilt trace, with whether the hub still has its tap attached (undefined: unknown). */
export interface ReloadedTrace {
  readonly traceId: string;
  readonly loaded: LoadedTrace;
  readonly attached: boolean | undefined;
}

/** The outcome of reloading the traces of one gap. */
export interface ReloadBatch {
  readonly gen: number;
  readonly missed: number;
  readonly reloaded: readonly ReloadedTrace[];
  readonly failed: readonly ReloadFailure[];
}

/** How the reload runs: the files, the traces being reloaded, the window's current loaded traces. */
export interface ReloadContext {
  readonly files: TraceFiles;
  readonly pending: PendingReloads;
  current(id: string): LoadedTrace | undefined;
  /** Lets the window paint between chunks of a large file. */
  pause(): Promise<void>;
}

/** Times a file is read again when it ends before the first live record of its trace. */
const FILE_ATTEMPTS = 3;
const RETRY_MS = 100;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reloads the traces `ids` of gap batch `gen`, one after the other. A file is read again (a few
 * times) while it ends before the first live record kept for that trace: the hub publishes a
 * record a moment before its file write lands. Never rejects: a trace that failed is in `failed`.
 */
export async function reloadTraces(
  ctx: ReloadContext,
  ids: readonly string[],
  gen: number,
  missed: number,
): Promise<ReloadBatch> {
  let live: Map<string, boolean> | undefined;
  try {
    live = new Map((await ctx.files.listTraces()).traces.map((t) => [t.id, t.live]));
  } catch {
    // Unknown: each rebuilt trace keeps the attached state the window knew.
  }
  const reloaded: ReloadedTrace[] = [];
  const failed: ReloadFailure[] = [];
  for (const traceId of ids) {
    if (!ctx.pending.isCurrent(traceId, gen)) continue;
    try {
      let built: RebuiltTrace;
      for (let attempt = 1; ; attempt++) {
        const { text } = await ctx.files.readTracePreviews({ id: traceId });
        built = await rebuildTrace(traceId, text, ctx.current(traceId), () => ctx.pause());
        const first = ctx.pending.firstRecordSeq(traceId);
        if (first === undefined || built.loaded.lastSeq >= first - 1 || attempt >= FILE_ATTEMPTS) break;
        await delay(RETRY_MS * attempt);
      }
      reloaded.push({ traceId, loaded: built.loaded, attached: live?.get(traceId) });
    } catch (err) {
      failed.push({ traceId, problem: err instanceof Error ? err.message : String(err) });
    }
  }
  return { gen, missed, reloaded, failed };
}
