/**
 * What the Timeline's cells know beyond their row: whether the trace's times are real, the time of a
 * record, which Agent process served a connection at a seq, and the waterfall windows (the shown
 * rows', a submission's attempts'). Built once per render of the table; cells read it from context.
 */
import { createContext } from "react";
import type { TimelineEvents } from "../../../shared/analyzer/timeline-events.js";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import {
  attemptSpan,
  spanOf,
  submissionSpan,
  type WaterfallSpan,
  type WaterfallWindow,
  windowOf,
} from "../../../shared/analyzer/waterfall.js";
import { gapAxis, type TimeAxis } from "../../../shared/analyzer/waterfall-gaps.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";

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
  /** With long idle gaps among the top-level rows: the axis of `topWindow` with them cut (else null: bars use its track). */
  readonly topAxis: TimeAxis | null;
  /** The window of a submission's attempts' bars. */
  readonly windowOf: (s: Submission) => WaterfallWindow | null;
}

/** Facts for a trace with nothing known: no times, no pids. */
export const NO_FACTS: RowFacts = {
  timesKnown: false,
  tsOf: () => undefined,
  pidAt: () => null,
  topWindow: null,
  topAxis: null,
  windowOf: () => null,
};

/**
 * The window's axis with its long idle gaps cut, or null when there is none to cut. It spans the
 * window, not its track: a track's room for growth is no idle time, and on a cut axis it would take
 * the width the cut gave back.
 */
function cutAxis(spans: readonly WaterfallSpan[], w: WaterfallWindow | null): TimeAxis | null {
  if (!w) return null;
  const axis = gapAxis(spans, w);
  return axis.breaks.length > 0 ? axis : null;
}

/** The cells' facts, provided by the Timeline. */
export const RowFactsContext = createContext<RowFacts>(NO_FACTS);

/**
 * A top-level row's span, kept per row copy (a changed row is a new copy): the spans do not depend on
 * the filter, so a search that shows 77k rows again does not work them out again.
 */
const topSpans = new WeakMap<object, WaterfallSpan | null>();

/** The time span of a row (null: none, or the times are unknown). Event rows are points. */
export function spanOfRow(
  row: TimelineRow,
  facts: Pick<RowFacts, "timesKnown" | "tsOf">,
): WaterfallSpan | null {
  if (!facts.timesKnown) return null;
  switch (row.kind) {
    case "submission": {
      let s = topSpans.get(row.row);
      if (s === undefined) {
        s = submissionSpan(row.row.attempts, facts.tsOf);
        topSpans.set(row.row, s);
      }
      return s;
    }
    case "attempt":
      return attemptSpan(row.attempt, facts.tsOf);
    case "request": {
      const r = row.row;
      let s = topSpans.get(r);
      if (s === undefined) {
        const lostAt = r.outcome.kind === "lost" ? facts.tsOf(r.outcome.seq) : undefined;
        s = spanOf(r.sentAt, r.latencyMs, r.outcome, lostAt);
        topSpans.set(r, s);
      }
      return s;
    }
    case "event":
      return { start: row.event.ts, end: row.event.ts, state: "done" };
    default:
      return null;
  }
}

/** Builds the facts for the shown rows of a trace. */
export function rowFacts(input: {
  readonly timesKnown: boolean;
  readonly tsOf: (seq: number) => number | undefined;
  readonly events: TimelineEvents | undefined;
  readonly rows: readonly TimelineRow[];
  /** The newest record's time: a pending bar runs to it. */
  readonly now: number | undefined;
  /**
   * The spans of the shown top-level rows but the event rows, when the caller keeps them (the
   * search index does); without it each shown row's span is looked up. With it, `rows` need only
   * hold the shown event rows.
   */
  readonly topSpans?: readonly (WaterfallSpan | null)[];
}): RowFacts {
  const { timesKnown, tsOf, events, now, topSpans } = input;
  const base = { timesKnown, tsOf };
  const spans: WaterfallSpan[] = [];
  if (timesKnown) {
    if (topSpans) for (const s of topSpans) if (s) spans.push(s);
    for (const row of input.rows) {
      if (row.depth !== 0 || (topSpans && row.kind !== "event")) continue;
      const s = spanOfRow(row, base);
      if (s) spans.push(s);
    }
  }
  const windows = new WeakMap<Submission, WaterfallWindow | null>();
  const topWindow = windowOf(spans, now);
  return {
    ...base,
    pidAt: (conn, seq) => events?.pidAt(conn, seq) ?? null,
    topWindow,
    topAxis: cutAxis(spans, topWindow),
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
