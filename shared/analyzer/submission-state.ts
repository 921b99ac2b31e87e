/** The analyzer's private bookkeeping for one submission, next to the public row it keeps current. */
import { appended } from "./appended.js";
import type { Attempt, Submission } from "./timeline-model.js";

/** A submission row plus what judging it needs but a UI does not. */
export interface SubmissionState {
  readonly row: Submission;
  /** Canonical prompt content of each attempt, in attempt order. */
  digests: string[];
  /** For each of `row.messageIds` (same order): the seq that showed it first. */
  messageIdSeqs: number[];
  /** Answers without a messageId (v1 results): each is one insert. */
  nullInserts: number;
  /** For each `$/cancel_request` that named an attempt: the attempts pending at that moment. */
  readonly cancelGroups: Attempt[][];
  /** Seqs of Agent frames where the key appeared (capped). */
  readonly leakSeqs: number[];
  /** True when the session speaks v1 (agreed on the first attempt's connection, or a v1 answer): the RFD's rules do not apply. */
  v1: boolean;
  /** When this submission resends an earlier one: that one, and whether its answer was lost or an error. */
  resend: Resend | null;
  /** The later submission that resends this one. */
  resentAs: SubmissionState | null;
}

/** How a submission repeats an earlier one (the same prompt in the same session). */
export interface Resend {
  readonly of: SubmissionState;
  /** What the Client knew of the earlier one when it resent: its answer was lost, or it was an error. */
  readonly after: "lost" | "error";
  /** `unkeyed`: sent without a key; `new-key`: under a key other than the earlier one's. */
  readonly kind: "unkeyed" | "new-key";
}

/** Creates the state of a new submission around its row. */
export function newSubmissionState(row: Submission): SubmissionState {
  return {
    row,
    digests: [],
    messageIdSeqs: [],
    nullInserts: 0,
    cancelGroups: [],
    leakSeqs: [],
    v1: false,
    resend: null,
    resentAs: null,
  };
}

/** User messages inserted for the submission: distinct messageIds plus v1 answers without one. */
export function insertCount(state: SubmissionState): number {
  return state.row.messageIds.length + state.nullInserts;
}

/** Records a messageId produced for the submission (once). */
export function addMessageId(state: SubmissionState, messageId: string, seq: number): void {
  if (state.row.messageIds.includes(messageId)) return;
  state.row.messageIds = appended(state.row.messageIds, messageId);
  state.messageIdSeqs = appended(state.messageIdSeqs, seq);
}

/** Takes back a messageId that was only attributed to the submission. */
export function removeMessageId(state: SubmissionState, messageId: string): void {
  const i = state.row.messageIds.indexOf(messageId);
  if (i === -1) return;
  state.row.messageIds.splice(i, 1);
  state.messageIdSeqs.splice(i, 1);
}
