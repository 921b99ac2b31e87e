/**
 * What a Timeline header click sorts by: the sortable columns and a row's sort value in each. The
 * Timeline orders its whole row list itself; react-table only sees the rows on screen.
 */

import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { cellText } from "./cell-text.js";
import { type RowFacts, spanOfRow } from "./row-facts.js";
import { connsOf, pidsOf, SEVERITY_ORDER, sortedVerdicts } from "./row-words.js";

/** A column's sort value for a top-level row (null: sorts last), for the columns sorting makes sense on. */
export function sortValue(columnId: string, r: TimelineRow, facts: RowFacts): number | string | null {
  switch (columnId) {
    case "what":
    case "session":
    case "result":
    case "key": {
      const t = cellText(columnId, r, facts);
      return t === "" ? null : t;
    }
    case "verdict": {
      const vs = r.kind === "submission" || r.kind === "request" ? sortedVerdicts(r.row.verdicts) : [];
      const worst = vs[0];
      // Worst severity first when ascending: violation, client-issue, info, ok; then by name.
      return worst ? `${SEVERITY_ORDER.indexOf(worst.severity)} ${worst.name}` : null;
    }
    case "attempts":
      return r.kind === "submission" ? r.row.attempts.length : null;
    case "conns":
      return connsOf(r)[0] ?? null;
    case "pid":
      return pidsOf(r, facts)[0] ?? null;
    case "latency": {
      const s = spanOfRow(r, facts);
      if (!s || r.kind === "event") return null;
      if (s.state === "pending") return Number.POSITIVE_INFINITY;
      return s.end === null ? null : s.end - s.start;
    }
    default:
      return null;
  }
}

/** The ids of the columns a header click sorts by ("time" sorts in trace order). */
export const SORTABLE_COLUMNS: ReadonlySet<string> = new Set([
  "what",
  "time",
  "verdict",
  "session",
  "key",
  "attempts",
  "conns",
  "pid",
  "latency",
  "result",
]);
