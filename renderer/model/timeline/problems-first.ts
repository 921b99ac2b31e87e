/**
 * Problems first: the row an imported trace opens on, the first submission whose worst verdict is
 * the worst in the trace (a violation before a client issue before a note), or the first submission
 * when every verdict is ok.
 */
import type { VerdictSeverity } from "../../../shared/analyzer/verdicts.js";
import type { TimelineRow } from "./timeline-rows.js";

/** How bad a severity is: higher is worse. */
const BADNESS: Readonly<Record<VerdictSeverity, number>> = {
  ok: 0,
  info: 1,
  "client-issue": 2,
  violation: 3,
};

/** The worst badness among a row's verdicts (0 with none). */
function badnessOf(r: TimelineRow): number {
  if (r.kind !== "submission") return 0;
  let worst = 0;
  for (const v of r.row.verdicts) worst = Math.max(worst, BADNESS[v.severity] ?? 0);
  return worst;
}

/** The top-level row to open on: the first submission with the worst verdict shown, else the first submission. */
export function firstProblemRow(rows: readonly TimelineRow[]): TimelineRow | undefined {
  let pick: TimelineRow | undefined;
  let worst = -1;
  for (const r of rows) {
    if (r.kind !== "submission" || r.depth !== 0) continue;
    const b = badnessOf(r);
    if (b > worst) {
      pick = r;
      worst = b;
      if (b === BADNESS.violation) break;
    }
  }
  return pick;
}
