/**
 * Rebuilding live traces after the hub's ring lost events before this window got them (a `gap`):
 * which traces to reload, a fresh loaded trace fed the hub's trace file through the import decoder, the
 * live events that arrive while that runs (replayed once, records deduplicated by their tap seq),
 * and the notice for the user. No fetching and no DOM here: the pump and `gap-reload.ts` do that.
 */
import type { HubEvent } from "../../../shared/hub/hub-event.js";
import type { HubGap } from "../../../shared/hub/ui-wire.js";
import type { Notice } from "../store/view-slice.js";
import { LoadedTrace } from "./loaded-trace.js";
import { applyHubEvent, type TraceCatalog, traceLabel } from "./trace-catalog.js";
import { decodeLines, splitTraceText } from "./trace-file.js";

/** Lines decoded (and analyzed) between two pauses while a trace file is rebuilt. */
export const REBUILD_CHUNK_LINES = 10_000;

/** How many hub events a gap says this window never got. */
export function missedEvents(gap: HubGap): number {
  return Math.max(0, gap.oldestSeq - gap.after - 1);
}

/**
 * The traces a gap can have touched: every trace the hub wrote in this run (`traceIds`, oldest
 * first), then the live traces this window shows that the hub did not name.
 */
export function reloadTargets(gap: HubGap, catalog: TraceCatalog): string[] {
  const ids = new Set(gap.traceIds);
  for (const s of catalog.all()) if (s.source === "live") ids.add(s.id);
  return [...ids];
}

/** A loaded trace rebuilt from a trace file, with the file's unreadable lines. */
export interface RebuiltTrace {
  readonly loaded: LoadedTrace;
  readonly problems: readonly string[];
}

/**
 * Builds a fresh live loaded trace from the hub's file of trace `id`: the header, then the records
 * through the incremental analyzer, `REBUILD_CHUNK_LINES` at a time with `pause()` in between so
 * the window stays responsive. Records the user cleared from `previous` stay cleared. Throws when
 * the text is not a trace file.
 */
export async function rebuildTrace(
  id: string,
  text: string,
  previous: LoadedTrace | undefined,
  pause: () => Promise<void>,
): Promise<RebuiltTrace> {
  const split = splitTraceText(text);
  if (!split.ok) throw new Error(`the hub's file is not a trace: ${split.problem}`);
  const loaded = new LoadedTrace(id, traceLabel(id, split.header), "live");
  loaded.setHeader(split.header);
  if (previous) loaded.skipThrough(previous.clearedThrough);
  const problems: string[] = [];
  for (let from = 0; from < split.lines.length; from += REBUILD_CHUNK_LINES) {
    if (from > 0) await pause();
    const chunk = decodeLines(split.lines, from, from + REBUILD_CHUNK_LINES);
    problems.push(...chunk.problems);
    for (const r of chunk.entries) loaded.ingest(r);
  }
  return { loaded, problems };
}

/**
 * The reloads in flight, one per trace id, each with the hub events of its trace that arrived
 * since its gap. A newer gap on the same trace supersedes the older reload (its file may predate
 * the events the newer gap lost).
 */
export class PendingReloads {
  private readonly pending = new Map<string, { gen: number; events: HubEvent[] }>();
  private lastGen = 0;

  /** Starts (or restarts) reloading `ids`; returns the generation that names this batch. */
  begin(ids: readonly string[]): number {
    const gen = ++this.lastGen;
    for (const id of ids) this.pending.set(id, { gen, events: [] });
    return gen;
  }

  /** Keeps the events of traces being reloaded, to replay on the rebuilt trace. */
  note(events: readonly HubEvent[]): void {
    if (this.pending.size === 0) return;
    for (const e of events) this.pending.get(e.traceId)?.events.push(e);
  }

  /** Whether reload `gen` of trace `id` is still the one that counts. */
  isCurrent(id: string, gen: number): boolean {
    return this.pending.get(id)?.gen === gen;
  }

  /** The tap seq of the first live record kept for trace `id`, if any. */
  firstRecordSeq(id: string): number | undefined {
    for (const e of this.pending.get(id)?.events ?? []) if (e.kind === "record") return e.record.seq;
    return undefined;
  }

  /** Abandons reload `gen` of `id` (it failed); false when it was superseded anyway. */
  drop(id: string, gen: number): boolean {
    if (!this.isCurrent(id, gen)) return false;
    this.pending.delete(id);
    return true;
  }

  /**
   * Completes reload `gen` of `id`: replays the kept events on `fresh` (records it already has are
   * skipped by seq) and carries over what the file cannot tell from `current`, the loaded trace the
   * window showed until now: Clear, and tap gaps. `attached` is the hub's word on whether the tap
   * is still attached (undefined: unknown, keep `current`'s). Returns `fresh`, or undefined when
   * the reload was superseded.
   */
  finish(
    id: string,
    gen: number,
    fresh: LoadedTrace,
    current: LoadedTrace | undefined,
    attached: boolean | undefined,
  ): LoadedTrace | undefined {
    const p = this.pending.get(id);
    if (!p || p.gen !== gen) return undefined;
    this.pending.delete(id);
    if (current && current.clearedThrough > fresh.clearedThrough) {
      // Cleared while the file was being read: forget the same records.
      fresh.clear();
      fresh.skipThrough(current.clearedThrough);
    }
    fresh.attached = attached ?? current?.attached ?? false;
    for (const e of p.events) applyHubEvent(fresh, e);
    // `current` got every live event too, so its count already includes the replayed tap gaps.
    if (current) fresh.missing = current.missing;
    return fresh;
  }
}

/** A trace a reload could not rebuild, and why. */
export interface ReloadFailure {
  readonly traceId: string;
  readonly problem: string;
}

const count = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** The notice while traces are reloaded after a gap. */
export function reloadingNotice(missed: number, traces: number): Notice {
  return {
    tone: "info",
    text: `Missed ${count(missed, "event")}; reloading ${count(traces, "trace")} from the hub's files…`,
  };
}

/** The notice once a gap's reload ended; undefined when it had nothing left to report (superseded). */
export function reloadNotice(
  missed: number,
  reloaded: number,
  failures: readonly ReloadFailure[],
): Notice | undefined {
  const done = `Reloaded ${count(reloaded, "trace")} from the hub's files after missing ${count(missed, "event")}`;
  if (failures.length === 0) return reloaded > 0 ? { tone: "info", text: done } : undefined;
  const why = failures.map((f) => `${f.traceId}: ${f.problem}`).join("; ");
  const failed = `Could not reload ${count(failures.length, "trace")} from the hub's files (${why})`;
  return {
    tone: "error",
    text: reloaded > 0 ? `${done}. ${failed}.` : `Missed ${count(missed, "event")}. ${failed}.`,
  };
}
