/**
 * What the Timeline's cells know beyond their row: whether the trace's times are real, the time of a
 * record, which Agent process served a connection at a seq, and the waterfall windows (the shown
 * rows', a submission's attempts'). Built once per render of the table; cells read it from context.
 */
import { createContext } from "react";
import type { TimelineEvents } from "../../shared/analyzer/timeline-events.js";
import type { Submission } from "../../shared/analyzer/timeline-model.js";
import {
  attemptSpan,
  spanOf,
  submissionSpan,
  type WaterfallSpan,
  type WaterfallWindow,
  windowOf,
} from "../../shared/analyzer/waterfall.js";
import type { TimelineRow } from "./timeline-rows.js";

/** The facts cells share. */
export interface RowFacts {
  /** False for an import without real timestamps: no clock time, no duration, no bar. */
  readonly timesKnown: boolean;
  /** The time of the record with a seq, if held. */
  readonly tsOf: (seq: number) => number | undefined;
  /** The pid of the Agent serving `conn` at `seq`, when known. */
  readonly pidAt: (conn: number, seq: number) => number | null;
  /** The window of the top-level rows' bars (the shown rows'), or null without spans. */
  readonly topWindow: WaterfallWindow | null;
  /** The window of a submission's attempts' bars. */
  readonly windowOf: (s: Submission) => WaterfallWindow | null;
}

/** Facts for a trace with nothing known: no times, no pids. */
export const NO_FACTS: RowFacts = {
  timesKnown: false,
  tsOf: () => undefined,
  pidAt: () => null,
  topWindow: null,
  windowOf: () => null,
};

/** The cells' facts, provided by the Timeline. */
export const RowFactsContext = createContext<RowFacts>(NO_FACTS);

/** The time span of a row (null: none, or the times are unknown). Event rows are points. */
export function spanOfRow(
  row: TimelineRow,
  facts: Pick<RowFacts, "timesKnown" | "tsOf">,
): WaterfallSpan | null {
  if (!facts.timesKnown) return null;
  switch (row.kind) {
    case "submission":
      return submissionSpan(row.row.attempts, facts.tsOf);
    case "attempt":
      return attemptSpan(row.attempt, facts.tsOf);
    case "request": {
      const r = row.row;
      const lostAt = r.outcome.kind === "lost" ? facts.tsOf(r.outcome.seq) : undefined;
      return spanOf(r.sentAt, r.latencyMs, r.outcome, lostAt);
    }
    case "event":
      return { start: row.event.ts, end: row.event.ts, state: "done" };
    default:
      return null;
  }
}

/**
 * The spans of top-level submission and request rows, by row: a row object is a snapshot (a changed
 * row is a new object, timeline-rows.ts keeps one per analyzer row) and the records its seqs name
 * never change, so a growing trace computes only its new and changed rows' spans.
 */
const topSpans = new WeakMap<TimelineRow, WaterfallSpan | null>();

function topSpan(row: TimelineRow, facts: Pick<RowFacts, "timesKnown" | "tsOf">): WaterfallSpan | null {
  if (row.kind !== "submission" && row.kind !== "request") return spanOfRow(row, facts);
  let s = topSpans.get(row);
  if (s === undefined) {
    s = spanOfRow(row, facts);
    topSpans.set(row, s);
  }
  return s;
}

/** Builds the facts for the shown rows of a trace. */
export function rowFacts(input: {
  readonly timesKnown: boolean;
  readonly tsOf: (seq: number) => number | undefined;
  readonly events: TimelineEvents | undefined;
  readonly rows: readonly TimelineRow[];
  /** The newest record's time: a pending bar runs to it. */
  readonly now: number | undefined;
}): RowFacts {
  const { timesKnown, tsOf, events, now } = input;
  const base = { timesKnown, tsOf };
  const spans: WaterfallSpan[] = [];
  if (timesKnown) {
    for (const row of input.rows) {
      if (row.depth !== 0) continue;
      const s = topSpan(row, base);
      if (s) spans.push(s);
    }
  }
  const windows = new WeakMap<Submission, WaterfallWindow | null>();
  return {
    ...base,
    pidAt: (conn, seq) => events?.pidAt(conn, seq) ?? null,
    topWindow: windowOf(spans, now),
    windowOf: (s) => {
      if (!timesKnown) return null;
      let w = windows.get(s);
      if (w === undefined) {
        w = windowOf(
          s.attempts.map((a) => attemptSpan(a, tsOf)),
          now,
        );
        windows.set(s, w);
      }
      return w;
    },
  };
}
