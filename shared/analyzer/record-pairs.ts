/**
 * Each request record paired with its answer, for a records list: by seq, the method on both, the
 * other half's seq and, on the answer, the latency. Read from the analyzer's rows (submissions'
 * attempts and other requests); nothing re-parsed. Pure.
 */
import type { RequestRow, Submission } from "./timeline-model.js";

/** One half of a request/answer pair, as a record list shows it. */
export interface RecordPair {
  readonly role: "request" | "answer";
  readonly method: string;
  /** The seq of the other half, or null (no answer yet, or lost). */
  readonly other: number | null;
  /** Milliseconds from request to answer (on both halves once answered). */
  readonly latencyMs: number | null;
}

/** The pairs of every answered or pending request, by seq of each half. */
export function recordPairs(
  submissions: readonly Submission[],
  requests: readonly RequestRow[],
): ReadonlyMap<number, RecordPair> {
  const out = new Map<number, RecordPair>();
  const add = (method: string, req: number | null, res: number | null, latencyMs: number | null) => {
    if (req !== null) out.set(req, { role: "request", method, other: res, latencyMs });
    if (res !== null) out.set(res, { role: "answer", method, other: req, latencyMs });
  };
  for (const s of submissions) {
    for (const a of s.attempts) add("session/prompt", a.requestSeq, a.responseSeq, a.latencyMs);
  }
  for (const r of requests) add(r.method ?? "(unmatched response)", r.requestSeq, r.responseSeq, r.latencyMs);
  return out;
}

/** The words of a pair's Pair cell: "→ #12" on a request (its answer), "← #8" on an answer (its request). */
export function pairWords(p: RecordPair): string {
  if (p.role === "request") return p.other === null ? "no answer yet" : `→ #${p.other}`;
  return p.other === null ? "no request" : `← #${p.other}`;
}

/** A pair in a sentence, for the Pair cell's tooltip: "initialize request, answered at #12 after 25 ms". */
export function pairSentence(p: RecordPair): string {
  const after = p.latencyMs === null ? "" : ` after ${Math.round(p.latencyMs)} ms`;
  if (p.role === "request")
    return p.other === null
      ? `${p.method} request, no answer yet`
      : `${p.method} request, answered at #${p.other}${after}`;
  return p.other === null
    ? `${p.method} answer to no known request`
    : `${p.method} answer to the request at #${p.other}${after}`;
}
