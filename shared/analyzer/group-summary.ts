/**
 * A submission (the attempts sharing one key) stated in words and shape for its row: the short key,
 * "3 attempts · 2 dropped · 1 insert · deduplicated" and the messageId it settled on. Read from the
 * outcome model's fields (`agentEffect`, `clientSaw`, `inserts`, `finalMessageId`); nothing re-derived.
 */
import { ErrorCode } from "../protocol/error-codes.js";
import type { Submission } from "./timeline-model.js";

/** The parts of a submission's group line. */
export interface GroupSummary {
  /** The key shortened to at most 16 characters (head…tail), "no key", or "invalid key". */
  readonly shortKey: string;
  /** "3 attempts · 2 dropped · 1 insert · deduplicated": counts first, then what the Agent did. */
  readonly words: string;
  /** The messageId the submission settled on, or null. */
  readonly finalMessageId: string | null;
}

/** Shortens an opaque key to at most 16 characters: head…tail. */
export function shortKeyOf(key: string): string {
  return key.length <= 16 ? key : `${key.slice(0, 8)}…${key.slice(-6)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The group line of a submission: its short key, its attempts' counts and effects in words, its final messageId. */
export function groupSummary(s: Submission): GroupSummary {
  const shortKey = s.key !== null ? shortKeyOf(s.key) : s.keyStatus === "invalid" ? "invalid key" : "no key";
  let dropped = 0;
  let lost = 0;
  let cancelled = 0;
  let errors = 0;
  let pending = 0;
  let deduplicated = 0;
  for (const a of s.attempts) {
    const seen = a.clientSaw;
    const e = a.agentEffect;
    if (a.outcome.kind === "dropped" || (seen.kind === "nothing-ever" && seen.why === "request-dropped"))
      dropped++;
    if (e.kind === "unknown" && e.cause !== "v1-error") lost++;
    else if (e.kind === "not-inserted" && e.code === ErrorCode.RequestCancelled) cancelled++;
    else if (e.kind === "not-inserted" || (e.kind === "unknown" && e.cause === "v1-error")) errors++;
    else if (e.kind === "pending") pending++;
    else if (e.kind === "deduplicated") deduplicated++;
  }
  const parts = [plural(s.attempts.length, "attempt")];
  if (dropped > 0) parts.push(`${dropped} dropped`);
  if (lost > 0) parts.push(`${lost} lost`);
  if (cancelled > 0) parts.push(`${cancelled} cancelled`);
  if (errors > 0) parts.push(plural(errors, "error"));
  parts.push(plural(s.inserts, "insert"));
  // the group's shape: any attempt answered with an earlier messageId means the Agent deduplicated
  if (deduplicated > 0) parts.push("deduplicated");
  if (pending > 0) parts.push(`${pending} pending`);
  return { shortKey, words: parts.join(" · "), finalMessageId: s.finalMessageId };
}
