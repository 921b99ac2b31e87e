/**
 * Every trace this window knows: the hub's live taps (one per trace id) and imported files. Hub
 * events are routed to their trace here; the store reads `entries()` for the trace selector.
 */
import type { HubEvent } from "../../shared/hub/hub-event.js";
import type { TraceHeader } from "../../shared/trace/record.js";
import { LoadedTrace, type TraceSource } from "./loaded-trace.js";

/** A trace as the selector lists it. */
export interface TraceEntry {
  readonly id: string;
  readonly label: string;
  readonly source: TraceSource;
  readonly attached: boolean;
  readonly records: number;
}

/** A short label for a trace: the agent command when the header names one. */
export function traceLabel(id: string, header: TraceHeader | null): string {
  const command = header?.agent?.command;
  const name = command && command.length > 0 ? command.join(" ") : id;
  return name.length > 60 ? `${name.slice(0, 57)}…` : name;
}

/** Applies one hub event to the session of its trace (the catalog routes; a reload replays). */
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
  private readonly sessions = new Map<string, LoadedTrace>();
  private importCount = 0;

  /** The session of a trace id, if known. */
  get(id: string): LoadedTrace | undefined {
    return this.sessions.get(id);
  }

  /** Every session, oldest first. */
  all(): LoadedTrace[] {
    return [...this.sessions.values()];
  }

  /** Applies hub events in order; returns the sessions they touched. */
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
   * Puts a rebuilt live session in place of the one with its id (same place in the list), or adds
   * it when the window did not know the trace yet.
   */
  replace(session: LoadedTrace): void {
    this.sessions.set(session.id, session);
  }

  /** Starts a session for an imported file. */
  addImported(fileName: string, header: TraceHeader): LoadedTrace {
    const id = `import-${++this.importCount}`;
    const s = new LoadedTrace(id, fileName, "imported");
    s.setHeader(header);
    this.sessions.set(id, s);
    return s;
  }

  /** The newest trace whose tap is attached, else the newest live trace, else undefined. */
  newestLive(): LoadedTrace | undefined {
    const live = this.all().filter((s) => s.source === "live");
    return live.filter((s) => s.attached).at(-1) ?? live.at(-1);
  }

  /** The selector's entries, newest first. */
  entries(): TraceEntry[] {
    return this.all()
      .reverse()
      .map((s) => ({
        id: s.id,
        label: s.label,
        source: s.source,
        attached: s.attached,
        records: s.view.records,
      }));
  }

  private live(traceId: string): LoadedTrace {
    let s = this.sessions.get(traceId);
    if (!s) {
      s = new LoadedTrace(traceId, traceId, "live");
      this.sessions.set(traceId, s);
    }
    return s;
  }
}
