/**
 * Compares the analyzer's claims about one submission with ground truth recorded outside it: the
 * agent's store (what it inserted) and the client's own record (what it received). Every
 * disagreement is a false statement: a claim, what the analyzer said, and what is true.
 *
 * A claim the trace cannot settle is not held against the analyzer: an attempt whose answer was
 * lost with its connection or agent, or is still pending, may or may not have inserted ("unknown"),
 * so the insert count must then lie between what the analyzer saw and that plus the unknown attempts.
 */

import type { SubmissionClaims } from "./claims.js";

/** One statement of the analyzer that ground truth contradicts. */
export interface FalseStatement {
  /** The submission's key (null: the unkeyed client's submissions, merged). */
  readonly key: string | null;
  /** Which claim, e.g. "insert count", "the client saw", "verdict". */
  readonly claim: string;
  /** What the analyzer said. */
  readonly said: string;
  /** What ground truth shows. */
  readonly truth: string;
}

/** Ground truth for one submission. */
export interface SubmissionTruth {
  /** messageIds the agent's store holds for the submission's key (unkeyed: every unkeyed insert of the session). */
  readonly inserted: readonly string[];
  /** messageIds the client received, in order. */
  readonly received: readonly string[];
  /** Error codes the client received. */
  readonly errors: readonly number[];
}

const UNSETTLED = new Set(["unknown", "pending"]);
/** Verdicts that say the submission inserted exactly once. */
const ONE_INSERT = new Set(["single", "deduplicated"]);
/** Verdicts that say a second insert happened. */
const MORE_INSERTS = new Set([
  "duplicate-insert",
  "unkeyed-retry-inserted",
  "unkeyed-resend",
  "duplicating-resend",
  "v1-resend",
]);

/** Every false statement in `claims` against `truth`. */
export function compareClaims(claims: SubmissionClaims, truth: SubmissionTruth): FalseStatement[] {
  const out: FalseStatement[] = [];
  const key = claims.key;
  const wrong = (claim: string, said: string, t: string) => out.push({ key, claim, said, truth: t });
  const stored = new Set(truth.inserted);
  const n = stored.size;
  const storeWords =
    n === 0 ? "the agent's store has no insert" : `the agent's store has ${n}: ${[...stored].join(", ")}`;
  const clientWords =
    truth.received.length === 0
      ? "the client's record has no answer"
      : `the client's record has messageId ${[...new Set(truth.received)].join(", ")}`;

  if (claims.rows.length === 0) {
    if (n > 0 || truth.received.length > 0)
      wrong("submission", "no submission for this prompt", `${storeWords}; ${clientWords}`);
    return out;
  }

  // Insert count: exact when every attempt's effect is known.
  const unknown = claims.attempts.filter((a) => UNSETTLED.has(a.effect)).length;
  const countOk = unknown === 0 ? claims.inserts === n : claims.inserts <= n && n <= claims.inserts + unknown;
  if (!countOk)
    wrong(
      "insert count",
      `${claims.inserts} insert(s)${unknown > 0 ? ` (+ up to ${unknown} unknown)` : ""}`,
      storeWords,
    );

  for (const id of claims.messageIds)
    if (!stored.has(id)) wrong("messageId", `inserted messageId ${id}`, storeWords);
  for (const id of claims.finalMessageIds)
    if (!stored.has(id)) wrong("final messageId", `settled on messageId ${id}`, storeWords);

  // What the client saw: the messageId the client has is the first one it received.
  const first = truth.received[0] ?? null;
  const gotOne = first !== null;
  if (gotOne && !claims.clientMessageIds.includes(first))
    wrong(
      "the client saw",
      claims.clientMessageIds.length === 0
        ? "clientMessageId null (the client has no messageId)"
        : `clientMessageId ${claims.clientMessageIds.join(", ")}`,
      clientWords,
    );
  for (const id of claims.clientMessageIds)
    if (!truth.received.includes(id)) wrong("the client saw", `clientMessageId ${id}`, clientWords);

  const definite = gotOne || truth.errors.length > 0;
  if (claims.clientAnswered !== null && claims.clientAnswered !== definite)
    wrong(
      "the client saw",
      `clientAnswered ${claims.clientAnswered}`,
      definite ? `${clientWords} (or an error)` : "the client's record has no answer and no error",
    );

  // The result's words.
  const allResults = claims.results;
  if (gotOne && allResults.every((r) => /never saw|has not seen it yet|no answer reached the client/.test(r)))
    wrong("result words", allResults.join(" | "), clientWords);
  if (n > 0 && allResults.every((r) => /^(not inserted|withdrawn|never delivered)/.test(r)))
    wrong("result words", allResults.join(" | "), storeWords);

  // Verdicts.
  if (unknown === 0 && claims.verdicts.some((v) => ONE_INSERT.has(v)) && n !== 1 && key !== null)
    wrong("verdict", claims.verdicts.join(", "), storeWords);
  if (n > 1 && !claims.verdicts.some((v) => MORE_INSERTS.has(v)))
    wrong(
      "verdict",
      claims.verdicts.length === 0
        ? "no verdict"
        : `${claims.verdicts.join(", ")} (no verdict names a second insert)`,
      storeWords,
    );
  if (claims.verdicts.includes("withdrawn") && n > 0) wrong("verdict", "withdrawn", storeWords);

  // Colour speaks about the agent and the RFD: red only for an insert that breaks dedup.
  if (key !== null && n <= 1)
    for (const a of claims.attempts)
      if (a.tone === "violation")
        wrong(`attempt ${a.ref}: colour`, `red (violation): ${a.words}`, storeWords);

  // Per attempt: what the agent answered, and what reached the client.
  for (const a of claims.attempts) {
    if (a.agentMessageId !== null && !stored.has(a.agentMessageId))
      wrong(`attempt ${a.ref}`, a.words, storeWords);
    if (a.clientMessageId !== null && !truth.received.includes(a.clientMessageId))
      wrong(`attempt ${a.ref}: the client saw`, a.words, clientWords);
  }
  if (n > 0 && claims.attempts.every((a) => a.effect === "not-inserted" || a.effect === "not-delivered"))
    wrong("not inserted", claims.attempts.map((a) => `${a.ref}: ${a.words}`).join("; "), storeWords);
  return out;
}
