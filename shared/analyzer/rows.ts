/** Constructors of fresh timeline rows from the frame that creates them. */
import { MALFORMED_PREVIEW_CHARS } from "../protocol/analyzer-choices.js";
import type { JsonRpcId } from "../protocol/frame.js";
import type { RetryClassOrUnclassified } from "../protocol/retry-class.js";
import type { FrameRecord } from "../trace/record.js";
import type { Attempt, MalformedRow, Outcome, RequestRow, Submission } from "./timeline-model.js";

/** The outcome a just-sent request starts with: pending, or dropped when fault injection swallowed it. */
export function initialOutcome(r: FrameRecord): Outcome {
  return r.dropped ? { kind: "dropped", frame: "request", seq: r.seq } : { kind: "pending" };
}

/** A prompt attempt for the request frame `r`. */
export function newAttempt(r: FrameRecord, id: string | number): Attempt {
  const dropped = r.dropped === true;
  const attempt: Attempt = {
    conn: r.conn,
    id,
    requestSeq: r.seq,
    responseSeq: null,
    sentAt: r.ts,
    latencyMs: null,
    outcome: initialOutcome(r),
    cancelSeq: null,
    frameSeqs: [r.seq],
    effect: dropped ? "not-delivered" : "pending",
    words: dropped ? NOT_DELIVERED : "pending",
    agentEffect: dropped ? { kind: "not-delivered" } : { kind: "pending" },
    clientSaw: dropped ? { kind: "nothing-ever", why: "request-dropped" } : { kind: "nothing-yet" },
    sender:
      r.origin === undefined
        ? { kind: "client" }
        : {
            kind: "inspector",
            role: r.origin === "inspector" ? "retry" : "replay",
            replaces: r.replaces ?? null,
          },
    tone: dropped ? "unknown" : "pending",
    ...(r.origin === "inspector" && { origin: "inspector" as const, forwarded: false }),
  };
  return r.origin === undefined ? attempt : { ...attempt, origin: r.origin };
}

/** The words of an attempt whose request the inspector dropped. */
export const NOT_DELIVERED = "request dropped by the inspector: the Agent never saw it";

/** A request row for the request frame `r` (or, with `method` null, an unmatched response). */
export function newRequestRow(
  id: number,
  rev: number,
  r: FrameRecord,
  jsonRpcId: JsonRpcId,
  method: string | null,
  retryClass: RetryClassOrUnclassified,
  outcome: Outcome,
  sessionId: string | null = null,
): RequestRow {
  const unmatched = method === null;
  const row: RequestRow = {
    id,
    rev,
    conn: r.conn,
    dir: r.dir,
    jsonRpcId,
    method,
    sessionId,
    retryClass,
    requestSeq: unmatched ? null : r.seq,
    responseSeq: unmatched ? r.seq : null,
    sentAt: r.ts,
    latencyMs: null,
    outcome,
    unmatched,
    createdSessionId: null,
    verdicts: [],
  };
  return r.origin === undefined ? row : { ...row, origin: r.origin };
}

/** A malformed-frame row keeping the first characters of the frame. */
export function newMalformedRow(id: number, rev: number, r: FrameRecord, reason: string): MalformedRow {
  return {
    id,
    rev,
    seq: r.seq,
    conn: r.conn,
    dir: r.dir,
    reason,
    flags: r.flags ?? [],
    encoding: r.encoding ?? "utf8",
    preview: r.raw.slice(0, MALFORMED_PREVIEW_CHARS),
    dropped: r.dropped === true,
  };
}

/** An empty submission row. */
export function newSubmissionRow(
  id: number,
  rev: number,
  sessionId: string | null,
  key: string | null,
  keyStatus: Submission["keyStatus"],
  invalidKey: Submission["invalidKey"],
  promptPreview: string,
): Submission {
  return {
    id,
    rev,
    sessionId,
    key,
    keyStatus,
    invalidKey,
    promptPreview,
    attempts: [],
    messageIds: [],
    inserts: 0,
    finalMessageId: null,
    clientMessageId: null,
    clientAnswered: false,
    result: "pending",
    resendOf: null,
    resentAs: null,
    protocolVersion: null,
    verdicts: [],
  };
}
