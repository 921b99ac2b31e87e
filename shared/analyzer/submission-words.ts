/**
 * The words every view shows for a prompt attempt (what happened to it and what the Client saw) and
 * for its submission (where the Client stands). They say only what the trace shows: "not inserted"
 * only for an error response (v2) or a -32800; an answer lost with its connection or Agent is
 * "unknown"; a dropped answer's messageId is the Agent's, never the Client's.
 */
import { ErrorCode } from "../protocol/error-codes.js";
import { describeOutcomes } from "./attempt-outcome.js";
import { NOT_DELIVERED } from "./rows.js";
import type { SubmissionState } from "./submission-state.js";
import type { Attempt, AttemptEffect, Outcome, Submission } from "./timeline-model.js";

/** How a view names an attempt: the connection, JSON-RPC id and seq the user can find in every view. */
export function attemptRef(a: Pick<Attempt, "conn" | "id" | "requestSeq">): string {
  return `conn #${a.conn} id ${JSON.stringify(a.id)} (seq ${a.requestSeq})`;
}

/** How a view names a submission: its first attempt the Client sent (or its first attempt). */
export function submissionRef(s: Pick<Submission, "attempts">): string {
  const first = s.attempts.find((a) => a.origin === undefined) ?? s.attempts[0];
  return first ? attemptRef(first) : "a prompt";
}

const DROPPED_ANSWER = "answer dropped by the inspector: the client never saw it";

/** The words of the Agent's answer `answer` to attempt `a`, from its effect. */
function answerWords(s: SubmissionState, a: Attempt, answer: Outcome): string {
  const e = a.agentEffect;
  switch (e.kind) {
    case "inserted":
      if (e.messageId !== null) return `inserted → messageId ${e.messageId}`;
      return s.v1
        ? `inserted (v1 answer at the end of the turn, stopReason ${answer.kind === "inserted" ? (answer.stopReason ?? "?") : "?"}; v1 has no messageId)`
        : "inserted (the answer carried no messageId, which v2 requires)";
    case "deduplicated":
      return `answered with the original messageId ${e.messageId} (no new insert)`;
    case "not-inserted":
      return answer.kind === "error"
        ? `error ${answer.code} (${answer.message}): not inserted`
        : "cancelled (-32800) before insertion";
    case "unknown":
      return answer.kind === "error"
        ? `error ${answer.code} (${answer.message}); v1: whether it inserted is unknown`
        : "whether it inserted is unknown";
    default:
      return s.v1 ? "pending (a v1 answer comes at the end of the turn)" : "pending (held)";
  }
}

/** The old `effect` of an attempt, read from its `agentEffect`. */
function effectOf(a: Attempt): AttemptEffect {
  const e = a.agentEffect;
  switch (e.kind) {
    case "deduplicated":
      return "original";
    case "not-inserted":
      return e.code === ErrorCode.RequestCancelled ? "cancelled" : "error";
    case "unknown":
      return e.cause === "v1-error" ? "error" : "unknown";
    default:
      return e.kind;
  }
}

/** What the Client saw of attempt `a`, as a clause after the Agent's words ("" when it saw this answer). */
function clientClause(a: Attempt): string {
  const saw = a.clientSaw;
  switch (saw.kind) {
    case "forwarded": {
      // A v1 answer has no messageId: then the clause names no value rather than a vague "(its answer)".
      const what =
        saw.messageId !== null
          ? ` (messageId ${saw.messageId})`
          : saw.code !== null
            ? ` (error ${saw.code})`
            : "";
      return a.sender.kind === "client"
        ? `; answer dropped by the inspector; the client got its retry's answer${what} under its id ${JSON.stringify(saw.clientId)}`
        : `; forwarded to the client under its id ${JSON.stringify(saw.clientId)}`;
    }
    case "nothing-yet":
      return a.outcome.kind === "pending" ? "" : "; answer dropped by the inspector: its retry is pending";
    case "nothing-ever":
      if (saw.why === "answer-dropped") return `; ${DROPPED_ANSWER}`;
      if (saw.why === "answer-held")
        return "; answer held by a delay and never delivered: the client never saw it";
      return "";
    default:
      return "";
  }
}

/** Sets `effect` and `words` of attempt `i` from its outcome model fields. */
function describeAttempt(s: SubmissionState, i: number): void {
  const a = s.row.attempts[i] as Attempt;
  const o = a.outcome;
  a.effect = effectOf(a);
  if (o.kind === "lost") {
    if (o.cause === "held") {
      a.words = "request held by a delay and never delivered: the Agent never saw it";
      return;
    }
    const agent = o.cause === "agent-exit" || (o.cause === undefined && o.reason.startsWith("agent "));
    const why = agent ? "the agent died before answering" : `connection #${a.conn} closed before the answer`;
    const e = a.agentEffect;
    a.words =
      e.kind === "inserted" && e.messageId !== null
        ? `lost: ${why}, after a user message update showed it inserted → messageId ${e.messageId}`
        : `lost: ${why}; whether it inserted is unknown`;
    return;
  }
  if (o.kind === "dropped" && (o.frame === "request" || !o.answer)) {
    a.words = NOT_DELIVERED;
    return;
  }
  const answer = o.kind === "dropped" ? (o.answer as Outcome) : o;
  a.words = `${answerWords(s, a, answer)}${clientClause(a)}`;
}

/** Where the Client stands with the submission, in words (read from its attempts' `clientSaw`). */
function resultWords(s: SubmissionState): string {
  const row = s.row;
  const client = row.attempts.filter((a) => a.sender.kind === "client");
  const ids = row.messageIds.join(", ");
  if (row.clientMessageId !== null) {
    return row.inserts > 1
      ? `${row.inserts} inserts (${ids}); the client has messageId ${row.clientMessageId}`
      : `inserted once → messageId ${row.clientMessageId}`;
  }
  const sawInsert = client.some(
    (a) => a.clientSaw.kind === "answer" || (a.clientSaw.kind === "forwarded" && a.clientSaw.code === null),
  );
  if (sawInsert) {
    if (!s.v1)
      return row.inserts > 1
        ? `${row.inserts} inserts (answers without a messageId, which v2 requires)`
        : "inserted (the answer carried no messageId, which v2 requires)";
    return row.inserts > 1
      ? `${row.inserts} inserts (v1 answers, no messageId)`
      : "inserted (v1 answer, no messageId)";
  }
  if (row.attempts.some((a) => a.agentEffect.kind === "pending")) {
    if (ids !== "") return `pending; the Agent inserted messageId ${ids}, the client has not seen it yet`;
    return s.v1 ? "pending (a v1 answer comes at the end of the turn)" : "pending (held)";
  }
  const codes = client.flatMap((a) =>
    a.clientSaw.kind === "error"
      ? [a.clientSaw.code]
      : a.clientSaw.kind === "forwarded" && a.clientSaw.code !== null
        ? [a.clientSaw.code]
        : [],
  );
  if (ids !== "" || s.nullInserts > 0) {
    const inserted = `inserted${ids !== "" ? ` → messageId ${ids}` : ""}`;
    // The Client may have got an error (e.g. an inspector retry's, forwarded) for a prompt the Agent inserted.
    return codes.length > 0
      ? `${inserted}, but the client got error ${codes[0]} and no messageId`
      : `${inserted}, but the client never saw an answer`;
  }
  if (
    row.attempts.length > 0 &&
    row.attempts.every(
      (a) => a.agentEffect.kind === "not-inserted" && a.agentEffect.code === ErrorCode.RequestCancelled,
    )
  ) {
    return "withdrawn: every attempt cancelled (-32800), nothing inserted";
  }
  const error = codes.find((c) => c !== ErrorCode.RequestCancelled);
  if (error !== undefined) {
    return s.v1 ? `error ${error}; v1: whether it inserted is unknown` : `not inserted (error ${error})`;
  }
  if (codes.length > 0) return "not inserted (cancelled, -32800)";
  if (row.attempts.length > 0 && row.attempts.every((a) => a.agentEffect.kind === "not-delivered")) {
    return "never delivered: the inspector dropped the request, the Agent never saw it";
  }
  return "unknown: no answer reached the client; whether it inserted is unknown";
}

/** Brings the outcome model, the words of a submission and those of each of its attempts up to date. */
export function describeSubmission(s: SubmissionState): void {
  describeOutcomes(s);
  for (let i = 0; i < s.row.attempts.length; i++) describeAttempt(s, i);
  s.row.result = resultWords(s);
}
