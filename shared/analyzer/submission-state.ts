/** The analyzer's private bookkeeping for one submission, next to the public row it keeps current. */
import type { Attempt, Submission } from "./timeline-model.js";

/** A submission row plus what judging it needs but a UI does not. */
export interface SubmissionState {
  readonly row: Submission;
  /** Canonical prompt content of each attempt, in attempt order. */
  readonly digests: string[];
  /** Distinct messageIds produced for this submission (mirrors `row.messageIds`), each with the seq that showed it first. */
  readonly mids: Map<string, number>;
  /** Answers without a messageId (v1 results): each is one insert. */
  nullInserts: number;
  /** For each `$/cancel_request` that named an attempt: the attempts pending at that moment. */
  readonly cancelGroups: Attempt[][];
  /** Seqs of Agent frames where the key appeared (capped). */
  readonly leakSeqs: number[];
}

/** Creates the state of a new submission around its row. */
export function newSubmissionState(row: Submission): SubmissionState {
  return { row, digests: [], mids: new Map(), nullInserts: 0, cancelGroups: [], leakSeqs: [] };
}

/** Records a messageId produced for the submission (once). */
export function addMessageId(state: SubmissionState, messageId: string, seq: number): void {
  if (state.mids.has(messageId)) return;
  state.mids.set(messageId, seq);
  state.row.messageIds.push(messageId);
}

/** Takes back a messageId that was only attributed to the submission. */
export function removeMessageId(state: SubmissionState, messageId: string): void {
  if (!state.mids.delete(messageId)) return;
  const i = state.row.messageIds.indexOf(messageId);
  if (i !== -1) state.row.messageIds.splice(i, 1);
}
