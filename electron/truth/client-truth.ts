/**
 * Ground truth on the client's side, read from the reference client's own record, never from the
 * trace: `demo-client --json`'s report (every attempt with the answer or error it received, and an
 * answer that arrived after the attempt timed out), or, when the client did not get to print it
 * (killed at the run's deadline), its pending-submission file, which it rewrites on every attempt.
 */

import { readFileSync } from "node:fs";
import type { TrackedSubmission } from "../../shared/keys/client-submission-tracker.js";

/** What the client received for one submission. */
export interface ClientSubmissionTruth {
  readonly key: string | null;
  /** Every messageId the client received, in the order of its attempts (late answers included). */
  readonly received: readonly string[];
  /** Answers the client received that carried no messageId (a v1 agent's). */
  readonly idless: number;
  /** Error codes the client received. */
  readonly errors: readonly number[];
  /** Attempts the client sent. */
  readonly attempts: number;
  readonly status: string;
}

/** What the client recorded for its session. */
export interface ClientTruth {
  readonly sessionId: string | null;
  /** Which record it came from. */
  readonly source: "report" | "pending-file";
  readonly submissions: readonly ClientSubmissionTruth[];
}

function fromSubmission(s: TrackedSubmission): ClientSubmissionTruth {
  const received: string[] = [];
  const errors: number[] = [];
  let idless = 0;
  const answer = (id: string | null) => {
    if (id === null) idless++;
    else received.push(id);
  };
  for (const a of s.attempts) {
    if (a.outcome?.kind === "answered") answer(a.outcome.messageId);
    if (a.outcome?.kind === "error") errors.push(a.outcome.code);
    if (a.lateMessageId !== undefined) answer(a.lateMessageId);
  }
  return { key: s.key, received, idless, errors, attempts: s.attempts.length, status: s.status };
}

function parse(text: string): { sessionId?: string | null; submissions?: TrackedSubmission[] } | undefined {
  try {
    const doc = JSON.parse(text) as { sessionId?: string | null; submissions?: TrackedSubmission[] } | null;
    return doc && Array.isArray(doc.submissions) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the client's report text (its stdout), falling back to its pending file; undefined when neither is readable. */
export function readClientTruth(reportText: string, pendingFile: string): ClientTruth | undefined {
  const report = parse(reportText);
  if (report)
    return {
      sessionId: report.sessionId ?? null,
      source: "report",
      submissions: (report.submissions ?? []).map(fromSubmission),
    };
  let text: string;
  try {
    text = readFileSync(pendingFile, "utf8");
  } catch {
    return undefined;
  }
  const pending = parse(text);
  if (!pending) return undefined;
  return {
    sessionId: pending.sessionId ?? null,
    source: "pending-file",
    submissions: (pending.submissions ?? []).map(fromSubmission),
  };
}
