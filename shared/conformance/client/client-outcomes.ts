/**
 * What the client got for each of its requests, read from the analyzer's one outcome model (never
 * re-derived from the frames): for a `session/prompt`, its attempt's `clientSaw` (an answer the
 * inspector forwarded under the client's id counts as seen); for any other request, its row's
 * outcome. A loss is only what the model records as one (`nothing-ever`, a dropped or lost answer);
 * an answer that may still come is `pending`. Pure.
 */

import type { Attempt, RequestRow, Submission, TimelineModel } from "../../analyzer/timeline-model.js";

/** The part of the analyzer's model the client judge reads. */
export type ClientRunModel = Pick<TimelineModel, "submissions" | "requests">;

/** What the client got for one request. */
export type ClientGot =
  /**
   * An answer reached the client (`ok`: a result, not an error) at frame `seq`; `forwardedBy`: the
   * inspector retry whose answer the tap forwarded under the client's id.
   */
  | {
      readonly kind: "answer";
      readonly ok: boolean;
      readonly seq: number;
      readonly forwardedBy?: string | number;
    }
  /** Nothing yet, and the model does not say it was lost. */
  | { readonly kind: "pending" }
  /** The model records that no answer will reach the client; `seq`: the frame or record where it was lost. */
  | { readonly kind: "lost"; readonly seq: number };

/** What the client got for one request, and the seqs of the frames that show it. */
export interface ClientView {
  readonly got: ClientGot;
  /** The request's own frames and, for a forwarded answer, the retry's (request, answer, forwarded copy). */
  readonly frameSeqs: readonly number[];
}

const PENDING: ClientView = { got: { kind: "pending" }, frameSeqs: [] };

function maxOf(seqs: readonly number[], fallback: number): number {
  let max = fallback;
  for (const s of seqs) if (s > max) max = s;
  return max;
}

/** Where an outcome that ended without reaching the client was lost (its dropped frame or the loss record). */
function lossAt(o: Attempt["outcome"], fallback: number): number {
  return o.kind === "lost" || o.kind === "dropped" ? o.seq : fallback;
}

function viewOfAttempt(a: Attempt, s: Submission): ClientView {
  const saw = a.clientSaw;
  const own = a.frameSeqs;
  switch (saw.kind) {
    case "answer":
      return {
        got: { kind: "answer", ok: true, seq: a.responseSeq ?? maxOf(own, a.requestSeq) },
        frameSeqs: own,
      };
    case "error":
      return {
        got: { kind: "answer", ok: false, seq: a.responseSeq ?? maxOf(own, a.requestSeq) },
        frameSeqs: own,
      };
    case "forwarded": {
      const retry = s.attempts.find(
        (r) =>
          r.sender.kind === "inspector" &&
          r.conn === a.conn &&
          r.id === saw.retryId &&
          r.requestSeq > a.requestSeq,
      );
      const seqs = retry ? [...own, ...retry.frameSeqs] : own;
      return {
        got: {
          kind: "answer",
          ok: saw.code === null,
          seq: retry ? maxOf(retry.frameSeqs, retry.requestSeq) : maxOf(own, a.requestSeq),
          forwardedBy: saw.retryId,
        },
        frameSeqs: seqs,
      };
    }
    case "nothing-yet":
      return { got: { kind: "pending" }, frameSeqs: own };
    case "nothing-ever":
      return {
        got: { kind: "lost", seq: lossAt(a.outcome, a.responseSeq ?? maxOf(own, a.requestSeq)) },
        frameSeqs: own,
      };
  }
}

function viewOfRequest(r: RequestRow): ClientView {
  const seqs = [r.requestSeq, r.responseSeq].filter((s): s is number => s !== null);
  const o = r.outcome;
  const at = r.responseSeq ?? r.requestSeq ?? 0;
  switch (o.kind) {
    case "pending":
      return { got: { kind: "pending" }, frameSeqs: seqs };
    case "answered":
    case "inserted":
      return { got: { kind: "answer", ok: true, seq: at }, frameSeqs: seqs };
    case "error":
    case "cancelled":
      return { got: { kind: "answer", ok: false, seq: at }, frameSeqs: seqs };
    case "lost":
    case "dropped":
      return { got: { kind: "lost", seq: o.seq }, frameSeqs: seqs };
  }
}

/** The client's view of every request it sent, by the seq of its request frame. */
export class ClientOutcomes {
  private readonly bySeq = new Map<number, ClientView>();

  constructor(model: ClientRunModel) {
    for (const s of model.submissions)
      for (const a of s.attempts)
        if (a.sender.kind === "client") this.bySeq.set(a.requestSeq, viewOfAttempt(a, s));
    for (const r of model.requests)
      if (r.dir === "client->agent" && r.origin === undefined && r.requestSeq !== null && !r.unmatched)
        this.bySeq.set(r.requestSeq, viewOfRequest(r));
  }

  /** What the client got for the request sent in frame `seq` (pending when the model has no row for it). */
  of(seq: number): ClientView {
    return this.bySeq.get(seq) ?? PENDING;
  }
}
