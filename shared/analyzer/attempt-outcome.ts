/**
 * The one outcome model of prompt attempts: for every attempt of a submission, from the frames
 * alone, what it did to the Agent's conversation (`agentEffect`), what the Client saw of it
 * (`clientSaw`), who sent it (`sender`, set when it is created) and its colour (`tone`); and for the
 * submission, the messageId the Client got and whether it has an answer. Words, verdicts, the UI,
 * OpenTelemetry and the stress invariants read these fields; none re-derives them.
 */
import { CANCELLED_INVALID_KEY_IS_ACCEPTED } from "../protocol/analyzer-choices.js";
import { ErrorCode } from "../protocol/error-codes.js";
import { agentAnswer } from "./outcome.js";
import type { SubmissionState } from "./submission-state.js";
import type { AgentEffect, Attempt, AttemptTone, ClientSaw, Outcome } from "./timeline-model.js";

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
export function shownBeforeLoss(s: SubmissionState, i: number, lostSeq: number): string | null {
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

/** The effect of the Agent's answer `answer` to attempt `i`. */
function effectOfAnswer(s: SubmissionState, i: number, answer: Outcome): AgentEffect {
  switch (answer.kind) {
    case "inserted": {
      const id = answer.messageId;
      if (id !== null && isOriginal(s, i, id)) return { kind: "deduplicated", messageId: id };
      return { kind: "inserted", messageId: id };
    }
    case "error":
      return s.v1 ? { kind: "unknown", cause: "v1-error" } : { kind: "not-inserted", code: answer.code };
    case "cancelled":
      return { kind: "not-inserted", code: ErrorCode.RequestCancelled };
    default:
      return { kind: "inserted", messageId: null };
  }
}

/** What attempt `i` did to the Agent's conversation. */
function agentEffectOf(s: SubmissionState, i: number): AgentEffect {
  const o = (s.row.attempts[i] as Attempt).outcome;
  switch (o.kind) {
    case "pending":
      return { kind: "pending" };
    case "lost": {
      if (o.cause === "held") return { kind: "not-delivered" };
      const shown = shownBeforeLoss(s, i, o.seq);
      if (shown !== null) return { kind: "inserted", messageId: shown };
      const agent = o.cause === "agent-exit" || (o.cause === undefined && o.reason.startsWith("agent "));
      return { kind: "unknown", cause: agent ? "agent-exit" : "conn-close" };
    }
    case "dropped":
      return o.frame === "request" || !o.answer ? { kind: "not-delivered" } : effectOfAnswer(s, i, o.answer);
    default:
      return effectOfAnswer(s, i, o);
  }
}

/** What the Client saw of an answer that reached it (own or forwarded): a messageId, or an error code. */
function seenAnswer(o: Outcome): { messageId: string | null; code: number | null } | null {
  switch (o.kind) {
    case "inserted":
      return { messageId: o.messageId, code: null };
    case "error":
      return { messageId: null, code: o.code };
    case "cancelled":
      return { messageId: null, code: ErrorCode.RequestCancelled };
    default:
      return null;
  }
}

/** Why the Client never got the answer of an attempt that ended without reaching it. */
function neverSeen(o: Outcome): ClientSaw {
  if (o.kind === "dropped") {
    const why = o.frame === "request" ? "request-dropped" : o.held ? "answer-held" : "answer-dropped";
    return { kind: "nothing-ever", why };
  }
  if (o.kind === "lost" && o.cause === "held") return { kind: "nothing-ever", why: "request-dropped" };
  return { kind: "nothing-ever", why: "lost" };
}

const NO_RETRIES: ReadonlyMap<string, Attempt[]> = new Map();

/** The inspector retries of a submission by the Client attempt they copy: `conn|typeof id|id`. */
function retriesByOriginal(s: SubmissionState): ReadonlyMap<string, Attempt[]> {
  if (!s.row.attempts.some((a) => a.sender.kind === "inspector")) return NO_RETRIES;
  const out = new Map<string, Attempt[]>();
  for (const r of s.row.attempts) {
    if (r.sender.kind !== "inspector" || r.sender.role !== "retry" || r.sender.replaces === null) continue;
    const k = originalKey(r.conn, r.sender.replaces);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

function originalKey(conn: number, id: string | number): string {
  return `${conn}|${typeof id}|${String(id)}`;
}

/** What the Client saw of attempt `a`. */
function clientSawOf(a: Attempt, retries: ReadonlyMap<string, Attempt[]>): ClientSaw {
  const o = a.outcome;
  const sender = a.sender;
  if (sender.kind === "inspector") {
    if (o.kind === "pending") return { kind: "nothing-yet" };
    const seen = a.forwarded === true ? seenAnswer(o) : null;
    if (seen !== null && sender.replaces !== null)
      return { kind: "forwarded", clientId: sender.replaces, retryId: a.id, ...seen };
    if (o.kind === "lost" || o.kind === "dropped") return neverSeen(o);
    return { kind: "nothing-ever", why: "not-forwarded" };
  }
  if (o.kind === "pending") return { kind: "nothing-yet" };
  if (o.kind === "inserted") return { kind: "answer", messageId: o.messageId };
  if (o.kind === "error") return { kind: "error", code: o.code };
  if (o.kind === "cancelled") return { kind: "error", code: ErrorCode.RequestCancelled };
  // The Client's own answer never reached it: an inspector retry may have answered in its place.
  const mine = (retries.get(originalKey(a.conn, a.id)) ?? []).filter((r) => r.requestSeq > a.requestSeq);
  for (const r of mine) {
    const seen = r.forwarded === true ? seenAnswer(r.outcome) : null;
    if (seen !== null) return { kind: "forwarded", clientId: a.id, retryId: r.id, ...seen };
  }
  if (mine.some((r) => r.outcome.kind === "pending")) return { kind: "nothing-yet" };
  return neverSeen(o);
}

/** True when the Agent rejected nothing it had to: an answer to an invalid key other than -32602 (and -32800 by decision). */
function invalidKeyAccepted(s: SubmissionState, effect: AgentEffect): boolean {
  if (s.v1 || s.row.keyStatus !== "invalid") return false;
  if (effect.kind === "inserted" || effect.kind === "deduplicated") return true;
  if (effect.kind !== "not-inserted") return false;
  if (effect.code === ErrorCode.InvalidParams) return false;
  return effect.code !== ErrorCode.RequestCancelled || CANCELLED_INVALID_KEY_IS_ACCEPTED;
}

/** The colour of an attempt with effect `effect` (after `nullInsertsBefore` v1 inserts): about the Agent and the RFD, never transport. */
function toneOf(s: SubmissionState, effect: AgentEffect, nullInsertsBefore: number): AttemptTone {
  if (invalidKeyAccepted(s, effect)) return "violation";
  switch (effect.kind) {
    case "pending":
      return "pending";
    case "unknown":
    case "not-delivered":
      return "unknown";
    case "deduplicated":
      return "ok";
    case "not-inserted":
      if (effect.code === ErrorCode.RequestCancelled) return "ok";
      return s.row.keyStatus === "invalid" && effect.code === ErrorCode.InvalidParams ? "ok" : "warn";
    case "inserted": {
      const first = s.row.messageIds[0];
      const again =
        effect.messageId === null
          ? nullInsertsBefore > 0 || first !== undefined
          : (first !== undefined && effect.messageId !== first) || nullInsertsBefore > 0;
      if (!again) return "ok";
      // A second insert breaks dedup only where a valid key (v2) promised one insert.
      return s.row.keyStatus === "valid" && !s.v1 ? "violation" : "warn";
    }
  }
}

/**
 * Sets `agentEffect`, `clientSaw` and `tone` of every attempt of `s`, then the submission's
 * `clientMessageId` and `clientAnswered` (from its Client attempts' `clientSaw`).
 */
export function describeOutcomes(s: SubmissionState): void {
  const row = s.row;
  const attempts = row.attempts;
  let nullInserts = 0;
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i] as Attempt;
    const effect = agentEffectOf(s, i);
    a.agentEffect = effect;
    a.tone = toneOf(s, effect, nullInserts);
    if (effect.kind === "inserted" && effect.messageId === null) nullInserts++;
  }
  let clientMessageId: string | null = null;
  let answered = false;
  const retries = retriesByOriginal(s);
  for (const a of attempts) {
    a.clientSaw = clientSawOf(a, retries);
    if (a.sender.kind !== "client") continue;
    const saw = a.clientSaw;
    if (saw.kind === "answer" || saw.kind === "error" || saw.kind === "forwarded") answered = true;
    if (clientMessageId === null && (saw.kind === "answer" || saw.kind === "forwarded"))
      clientMessageId = saw.messageId;
  }
  row.clientMessageId = clientMessageId;
  row.clientAnswered = answered;
}

/** True when the Client saw a definite answer of attempt `a` (its own, or one forwarded under its id). */
export function clientSawDefinite(a: Pick<Attempt, "clientSaw">): boolean {
  const k = a.clientSaw.kind;
  return k === "answer" || k === "error" || k === "forwarded";
}
