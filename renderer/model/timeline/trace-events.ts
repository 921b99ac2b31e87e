/**
 * The lifecycle and fault events of a shown trace (shared/analyzer/timeline-events.ts), kept beside
 * its `LoadedTrace` and brought up to date from its records on demand: only the records added since
 * the last call are read, and Clear (which empties the records) starts the list again.
 */
import { TimelineEvents } from "../../../shared/analyzer/timeline-events.js";
import type { LoadedTrace } from "../traces/loaded-trace.js";

interface Kept {
  events: TimelineEvents;
  /** How many of the trace's records were read. */
  read: number;
  /** The trace's `clearedThrough` when they were. */
  cleared: number;
}

const kept = new WeakMap<LoadedTrace, Kept>();

/** The events of `trace` up to its newest record. */
export function eventsOf(trace: LoadedTrace): TimelineEvents {
  let k = kept.get(trace);
  if (!k || k.cleared !== trace.clearedThrough || trace.records.length < k.read) {
    k = { events: new TimelineEvents(), read: 0, cleared: trace.clearedThrough };
    kept.set(trace, k);
  }
  const records = trace.records;
  for (; k.read < records.length; k.read++) k.events.ingest(records[k.read] as (typeof records)[number]);
  return k.events;
}
