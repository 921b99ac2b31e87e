/**
 * "Retrying / unresolved": a submission the Client has no definite answer to (pending, lost,
 * dropped and not yet answered by a retry) or whose last attempt's effect is pending or unknown;
 * a request still pending or lost. The filter's `outcome:unresolved` and the bar's chip read it.
 */
import type { RequestRow, Submission } from "../../../shared/analyzer/timeline-model.js";

/** True when a submission is still being retried or its result is unresolved. */
export function isUnresolvedSubmission(s: Submission): boolean {
  if (!s.clientAnswered) return true;
  const last = s.attempts[s.attempts.length - 1];
  return last !== undefined && (last.agentEffect.kind === "pending" || last.agentEffect.kind === "unknown");
}

/** True when a request has no answer yet, or lost it. */
export function isUnresolvedRequest(r: RequestRow): boolean {
  return r.outcome.kind === "pending" || r.outcome.kind === "lost";
}

/** How many submissions are unresolved. */
export function unresolvedCount(submissions: readonly Submission[]): number {
  let n = 0;
  for (const s of submissions) if (isUnresolvedSubmission(s)) n++;
  return n;
}
