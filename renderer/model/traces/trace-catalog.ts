/**
 * Every trace this window knows: the hub's live taps (one per trace id) and imported files. Hub
 * events are routed to their trace here; the store reads `entries()` for the trace picker.
 */
import type { HubEvent } from "../../../shared/hub/hub-event.js";
import { describeAgent, type TapStatus } from "../../../shared/hub/tap-summary.js";
import type { TraceHeader } from "../../../shared/trace/record.js";
import { traceName } from "../../../shared/trace/tap-name.js";
import { visibleText } from "../text/visible-text.js";
import { livenessOf, pastAgentWords } from "./liveness.js";
import { LoadedTrace, type TraceSource } from "./loaded-trace.js";
import { type VerdictSummary, verdictSummary } from "./verdict-summary.js";

/** A trace as the picker lists it. */
export interface TraceEntry {
  readonly id: string;
  /** The tap's name (live), or the file's name (imported). */
  readonly label: string;
  /** A second line: the agent command of a live tap, the tap's own name for an imported file. */
  readonly detail: string;
  /** The agent command (argv) and its folder, when the header names them. */
  readonly command: readonly string[] | null;
  readonly cwd: string | null;
  readonly source: TraceSource;
  readonly attached: boolean;
  /** The tap's status (live), `file` for an import. */
  readonly status: TapStatus | "file";
  /** The header's start time (ISO 8601), when it has a valid one. */
  readonly startedAt: string | null;
  /** `agent pid 4242`, `agent exited (code 0)`, ... */
  readonly agent: string;
  /** The agent processes alive, as the tap's records say (fault confirmations name them). */
  readonly agentPids: readonly number[];
  /** Records of the trace this window has seen (Clear does not lower it). */
  readonly records: number;
  readonly verdicts: VerdictSummary;
}

/** What to call a live trace: the tap's name, or one derived from an older header's agent command. */
export function traceLabel(id: string, header: TraceHeader | null): string {
  return visibleText(traceName(header, id));
}

function startOf(header: TraceHeader | null): string | null {
  // An import whose source has no wall-clock time has no start time either (its header holds the epoch).
  const lacks = header?.imported?.lacks;
  if (lacks?.includes("timestamps") || lacks?.includes("wall-clock")) return null;
  const at = typeof header?.startedAt === "string" ? new Date(header.startedAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

/** The picker's entry for one trace. */
export function traceEntry(s: LoadedTrace): TraceEntry {
  const imported = s.source === "imported";
  const argv = s.header?.agent?.command;
  const command = Array.isArray(argv) ? argv.filter((a) => typeof a === "string") : null;
  const cwd = typeof s.header?.agent?.cwd === "string" ? s.header.agent.cwd : null;
  const detail = imported ? (s.header ? traceName(s.header, "") : "") : "";
  const status = imported ? "file" : s.life.status(s.attached);
  return {
    id: s.id,
    label: visibleText(s.label),
    detail: detail === s.label ? "" : visibleText(detail),
    command,
    cwd,
    source: s.source,
    attached: s.attached,
    status,
    startedAt: startOf(s.header),
    agent:
      pastAgentWords(s.life.snapshot().agentPids, livenessOf(status)) ?? describeAgent(s.life.snapshot()),
    agentPids: s.life.snapshot().agentPids,
    records: s.life.records,
    verdicts: verdictSummary(s.view.verdictCounts),
  };
}

/** Applies one hub event to the loaded trace it belongs to (the catalog routes; a reload replays). */
export function applyHubEvent(s: LoadedTrace, e: HubEvent): void {
  switch (e.kind) {
    case "tap-attached":
      s.setHeader(e.header);
      s.label = traceLabel(s.id, e.header);
      s.attached = true;
      break;
    case "record":
      s.ingest(e.record);
      break;
    case "tap-detached":
      s.attached = false;
      break;
    case "tap-gap":
      s.missing += e.dropped;
      break;
  }
}

/** The traces of this window, newest first in `entries()`. */
export class TraceCatalog {
  private readonly loadedTraces = new Map<string, LoadedTrace>();
  private importCount = 0;

  /** The loaded trace of a trace id, if known. */
  get(id: string): LoadedTrace | undefined {
    return this.loadedTraces.get(id);
  }

  /** Every loaded trace, oldest first. */
  all(): LoadedTrace[] {
    return [...this.loadedTraces.values()];
  }

  /** Applies hub events in order; returns the loaded traces they touched. */
  applyHubEvents(events: readonly HubEvent[]): Set<LoadedTrace> {
    const touched = new Set<LoadedTrace>();
    for (const e of events) {
      const s = this.live(e.traceId);
      applyHubEvent(s, e);
      touched.add(s);
    }
    return touched;
  }

  /**
   * Puts a rebuilt live trace in place of the one with its id (same place in the list), or adds
   * it when the window did not know the trace yet.
   */
  replace(loaded: LoadedTrace): void {
    this.loadedTraces.set(loaded.id, loaded);
  }

  /** Starts a loaded trace for an imported file. */
  addImported(fileName: string, header: TraceHeader): LoadedTrace {
    const id = `import-${++this.importCount}`;
    const s = new LoadedTrace(id, fileName, "imported");
    s.setHeader(header);
    this.loadedTraces.set(id, s);
    return s;
  }

  /** The live trace started last whose tap is attached, else the live trace started last, else undefined. */
  newestLive(): LoadedTrace | undefined {
    const live = this.newestFirst().filter((s) => s.source === "live");
    return live.find((s) => s.attached) ?? live[0];
  }

  /** The picker's entries, newest first. */
  entries(): TraceEntry[] {
    return this.newestFirst().map(traceEntry);
  }

  /**
   * Every trace, the one started last first (by its header's start time; a tap re-attaching after a
   * hub restart keeps its place), then by the order this window learned of them.
   */
  private newestFirst(): LoadedTrace[] {
    const arrived = this.all();
    const start = new Map(
      arrived.map((s, i) => [s, [Date.parse(s.header?.startedAt ?? "") || 0, i] as const]),
    );
    return arrived.sort((a, b) => {
      const [sa, ia] = start.get(a) as readonly [number, number];
      const [sb, ib] = start.get(b) as readonly [number, number];
      return sb - sa || ib - ia;
    });
  }

  private live(traceId: string): LoadedTrace {
    let s = this.loadedTraces.get(traceId);
    if (!s) {
      s = new LoadedTrace(traceId, traceId, "live");
      this.loadedTraces.set(traceId, s);
    }
    return s;
  }
}
