/** Rows touched since the last `takeChanges()`, and copying them so a UI can keep what it got. */
import type { AgentRow, ConnectionRow, MalformedRow, RequestRow, Submission } from "./timeline-model.js";

/** The rows changed since the last flush, by kind (each row once). */
export class ChangeSet {
  readonly submissions = new Set<Submission>();
  readonly requests = new Set<RequestRow>();
  readonly malformed = new Set<MalformedRow>();
  readonly connections = new Set<ConnectionRow>();
  readonly agents = new Set<AgentRow>();

  /** Forgets every change. */
  clear(): void {
    this.submissions.clear();
    this.requests.clear();
    this.malformed.clear();
    this.connections.clear();
    this.agents.clear();
  }
}

/** A copy of a submission that later ingests do not change. */
export function copySubmission(s: Submission): Submission {
  return {
    ...s,
    attempts: s.attempts.map((a) => ({ ...a, frameSeqs: [...a.frameSeqs] })),
    messageIds: [...s.messageIds],
    verdicts: [...s.verdicts],
  };
}

/** A copy of a request row that later ingests do not change. */
export function copyRequest(r: RequestRow): RequestRow {
  return { ...r, verdicts: [...r.verdicts] };
}
