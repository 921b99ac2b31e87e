/**
 * The invariants every stress run's trace must hold, checked over the analyzer's model (pure):
 *
 * - `one-insert`: at most one user message inserted per key;
 * - `same-message-id`: every success of a key (every answer with a messageId, dropped ones too)
 *   carries the same messageId;
 * - `answered`: every submission the client made ends answered: the client saw a messageId (its
 *   own attempt's, or an inspector retry's answer forwarded under the client's id) or a -32800
 *   withdrawal; a key the trace never shows, or whose answers were all lost, is lost;
 * - `no-key-leak`: the analyzer found no key in an Agent->Client message (`key-leaked`).
 */

import type { Attempt, Submission, TimelineModel } from "../../analyzer/timeline-model.js";
import { ErrorCode } from "../../protocol/error-codes.js";

/** The invariants, by name. */
export const STRESS_INVARIANTS = ["one-insert", "same-message-id", "answered", "no-key-leak"] as const;

/** One invariant's name. */
export type StressInvariant = (typeof STRESS_INVARIANTS)[number];

/** One broken invariant, in one sentence naming the key and the frames (seq) that show it. */
export interface InvariantViolation {
  readonly invariant: StressInvariant;
  readonly key: string;
  readonly message: string;
  readonly seqs: readonly number[];
}

/** The messageId the Agent answered attempt `a` with (inserted or deduplicated; dropped answers too), or null. */
function answeredId(a: Attempt): string | null {
  const e = a.agentEffect;
  return e.kind === "inserted" || e.kind === "deduplicated" ? e.messageId : null;
}

/** Checks the invariants for the `keys` the client submitted; returns the broken ones (empty: the run passed). */
export function checkInvariants(model: TimelineModel, keys: readonly string[]): InvariantViolation[] {
  const out: InvariantViolation[] = [];
  const byKey = new Map<string, Submission[]>();
  for (const s of model.submissions) {
    if (s.key === null) continue;
    byKey.set(s.key, [...(byKey.get(s.key) ?? []), s]);
  }
  for (const key of keys) {
    const subs = byKey.get(key) ?? [];
    if (subs.length === 0) {
      out.push({
        invariant: "answered",
        key,
        message: `key ${key}: no prompt with this key is in the trace (lost before the tap)`,
        seqs: [],
      });
      continue;
    }
    const attempts = subs.flatMap((s) => s.attempts);
    const inserts = subs.reduce((n, s) => n + s.inserts, 0);
    const ids = [...new Set(subs.flatMap((s) => s.messageIds))];
    if (inserts > 1)
      out.push({
        invariant: "one-insert",
        key,
        message: `key ${key}: ${inserts} user messages inserted (messageIds ${ids.join(", ")})`,
        seqs: attempts.filter((a) => a.agentEffect.kind === "inserted").map((a) => a.requestSeq),
      });
    const answered = [...new Set(attempts.map(answeredId).filter((id): id is string => id !== null))];
    if (answered.length > 1)
      out.push({
        invariant: "same-message-id",
        key,
        message: `key ${key}: its successes carry different messageIds: ${answered.join(", ")}`,
        seqs: attempts.filter((a) => answeredId(a) !== null).map((a) => a.responseSeq ?? a.requestSeq),
      });
    // The client saw a messageId (its own attempt's, or an inspector retry's forwarded under its id) or a -32800.
    const seen = subs.some(
      (s) =>
        s.clientMessageId !== null ||
        s.attempts.some((a) => {
          const saw = a.clientSaw;
          const code = saw.kind === "error" ? saw.code : saw.kind === "forwarded" ? saw.code : null;
          return a.sender.kind === "client" && code === ErrorCode.RequestCancelled;
        }),
    );
    if (!seen) {
      const last = attempts.at(-1);
      out.push({
        invariant: "answered",
        key,
        message: `key ${key}: the client never saw an answer after ${attempts.length} attempt(s)${last ? `; the last: ${last.words}` : ""}`,
        seqs: attempts.map((a) => a.requestSeq),
      });
    }
    for (const s of subs)
      for (const v of s.verdicts)
        if (v.name === "key-leaked")
          out.push({ invariant: "no-key-leak", key, message: `key ${key}: ${v.detail}`, seqs: v.seqs });
  }
  return out;
}
