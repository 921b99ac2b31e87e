/** A trace's verdicts in three numbers, for the picker's chip: rows judged ok, Agent violations, Client issues. */
import { VERDICT_NAMES, type VerdictName, verdictSeverity } from "../../../shared/analyzer/verdicts.js";

/** Verdicts of a trace counted by severity. */
export interface VerdictSummary {
  readonly ok: number;
  readonly violation: number;
  readonly clientIssue: number;
}

/** Counts a view's verdicts by severity. */
export function verdictSummary(counts: Readonly<Record<VerdictName, number>>): VerdictSummary {
  let ok = 0;
  let violation = 0;
  let clientIssue = 0;
  for (const name of VERDICT_NAMES) {
    const n = counts[name] ?? 0;
    const severity = verdictSeverity(name);
    if (severity === "ok") ok += n;
    else if (severity === "violation") violation += n;
    else if (severity === "client-issue") clientIssue += n;
  }
  return { ok, violation, clientIssue };
}
