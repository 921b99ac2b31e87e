/**
 * The words every view shows for a prompt attempt (what happened to it and what the Client saw) and
 * for its submission (where the Client stands). They say only what the trace shows: "not inserted"
 * only for an error response (v2) or a -32800; an answer lost with its connection or Agent is
 * "unknown"; a dropped answer's messageId is the Agent's, never the Client's.
 */
import { agentAnswer, clientSawAnswer } from "./outcome.js";
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

/** The effect and words of the Agent's answer `answer` to attempt `i`. */
function answerWords(
  s: SubmissionState,
  i: number,
  answer: Outcome,
): { effect: AttemptEffect; words: string } {
  switch (answer.kind) {
    case "inserted": {
      const id = answer.messageId;
      if (id === null) {
        return {
          effect: "inserted",
          words: `inserted (v1 answer at the end of the turn, stopReason ${answer.stopReason ?? "?"}; v1 has no messageId)`,
        };
      }
      if (isOriginal(s, i, id))
        return { effect: "original", words: `answered with the original messageId ${id} (no new insert)` };
      return { effect: "inserted", words: `inserted → messageId ${id}` };
    }
    case "error":
      return {
        effect: "error",
        words: s.v1
          ? `error ${answer.code} (${answer.message}); v1: whether it inserted is unknown`
          : `error ${answer.code} (${answer.message}): not inserted`,
      };
    case "cancelled":
      return { effect: "cancelled", words: "cancelled (-32800) before insertion" };
    default:
      return { effect: "inserted", words: answer.kind };
  }
}

/**
 * True when messageId `id`, answered to attempt `i`, existed before it: an earlier attempt's answer
 * named it, or a user message showed it before this attempt was sent.
 */
function isOriginal(s: SubmissionState, i: number, id: string): boolean {
  const attempts = s.row.attempts;
  for (let j = 0; j < i; j++) {
    const earlier = agentAnswer((attempts[j] as Attempt).outcome);
    if (earlier?.kind === "inserted" && earlier.messageId === id) return true;
  }
  const at = s.row.messageIds.indexOf(id);
  const firstSeen = at === -1 ? undefined : s.messageIdSeqs[at];
  return firstSeen !== undefined && firstSeen < (attempts[i] as Attempt).requestSeq;
}

/**
 * The messageId a user message update showed for attempt `i` between its request and its loss at
 * `lostSeq`, when no earlier answer of the submission had named it (so it is this attempt's
 * insert), or null.
 */
function shownBeforeLoss(s: SubmissionState, i: number, lostSeq: number): string | null {
  const attempts = s.row.attempts;
  const from = (attempts[i] as Attempt).requestSeq;
  for (let k = 0; k < s.row.messageIds.length; k++) {
    const seen = s.messageIdSeqs[k] as number;
    if (seen < from || seen > lostSeq) continue;
    const id = s.row.messageIds[k] as string;
    const answered = attempts.some((a) => {
      const answer = agentAnswer(a.outcome);
      return answer?.kind === "inserted" && answer.messageId === id && (a.responseSeq ?? seen) < seen;
    });
    if (!answered) return id;
  }
  return null;
}

/** Sets `effect` and `words` of attempt `i` from its outcome. */
function describeAttempt(s: SubmissionState, i: number): void {
  const a = s.row.attempts[i] as Attempt;
  const o = a.outcome;
  switch (o.kind) {
    case "pending":
      a.effect = "pending";
      a.words = s.v1 ? "pending (a v1 answer comes at the end of the turn)" : "pending (held)";
      return;
    case "lost": {
      const agent = o.cause === "agent-exit" || (o.cause === undefined && o.reason.startsWith("agent "));
      const why = agent
        ? "the agent died before answering"
        : `connection #${a.conn} closed before the answer`;
      const shown = shownBeforeLoss(s, i, o.seq);
      a.effect = shown === null ? "unknown" : "inserted";
      a.words =
        shown === null
          ? `lost: ${why}; whether it inserted is unknown`
          : `lost: ${why}, after a user message update showed it inserted → messageId ${shown}`;
      return;
    }
    case "dropped": {
      if (o.frame === "request" || !o.answer) {
        a.effect = "not-delivered";
        a.words = NOT_DELIVERED;
        return;
      }
      const w = answerWords(s, i, o.answer);
      a.effect = w.effect;
      a.words = `${w.words}; ${DROPPED_ANSWER}`;
      return;
    }
    default: {
      const w = answerWords(s, i, o);
      a.effect = w.effect;
      a.words = w.words;
    }
  }
}

/** Where the Client stands with the submission, in words. */
function resultWords(s: SubmissionState): string {
  const row = s.row;
  const client = row.attempts.filter((a) => a.origin === undefined);
  const seen = client.filter((a) => clientSawAnswer(a.outcome));
  const ids = row.messageIds.join(", ");
  if (row.clientMessageId !== null) {
    return row.inserts > 1
      ? `${row.inserts} inserts (${ids}); the client has messageId ${row.clientMessageId}`
      : `inserted once → messageId ${row.clientMessageId}`;
  }
  if (seen.some((a) => a.outcome.kind === "inserted")) {
    return row.inserts > 1
      ? `${row.inserts} inserts (v1 answers, no messageId)`
      : "inserted (v1 answer, no messageId)";
  }
  if (row.attempts.some((a) => a.outcome.kind === "pending")) {
    if (ids !== "") return `pending; the Agent inserted messageId ${ids}, the client has not seen it yet`;
    return s.v1 ? "pending (a v1 answer comes at the end of the turn)" : "pending (held)";
  }
  if (ids !== "" || s.nullInserts > 0) {
    return `inserted${ids !== "" ? ` → messageId ${ids}` : ""}, but the client never saw an answer`;
  }
  if (row.attempts.length > 0 && row.attempts.every((a) => agentAnswer(a.outcome)?.kind === "cancelled")) {
    return "withdrawn: every attempt cancelled (-32800), nothing inserted";
  }
  const error = seen.find((a) => a.outcome.kind === "error")?.outcome;
  if (error?.kind === "error") {
    return s.v1
      ? `error ${error.code}; v1: whether it inserted is unknown`
      : `not inserted (error ${error.code})`;
  }
  if (seen.some((a) => a.outcome.kind === "cancelled")) return "not inserted (cancelled, -32800)";
  if (row.attempts.length > 0 && row.attempts.every((a) => a.effect === "not-delivered")) {
    return "never delivered: the inspector dropped the request, the Agent never saw it";
  }
  return "unknown: no answer reached the client; whether it inserted is unknown";
}

/** Brings the words of a submission and of each of its attempts up to date with their outcomes. */
export function describeSubmission(s: SubmissionState): void {
  const row = s.row;
  const attempts = row.attempts;
  let clientMessageId: string | null = null;
  for (let i = 0; i < attempts.length; i++) {
    describeAttempt(s, i);
    const a = attempts[i] as Attempt;
    if (clientMessageId === null && a.origin === undefined && a.outcome.kind === "inserted")
      clientMessageId = a.outcome.messageId;
  }
  row.clientMessageId = clientMessageId;
  row.result = resultWords(s);
}
