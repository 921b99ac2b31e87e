/**
 * Pairs the submissions of two traces: first by idempotency key where both traces have it, then
 * the rest by session position and prompt text (the n-th submission of a prompt in the k-th
 * session of A with the n-th of the same prompt in the k-th session of B). Session ids are never
 * compared: every run mints its own.
 */
import type { MatchKind } from "./diff-model.js";
import type { SideSubmission } from "./diff-side.js";

/** Two submissions paired (or one left alone). */
export interface MatchedPair {
  readonly kind: MatchKind;
  readonly a: SideSubmission | null;
  readonly b: SideSubmission | null;
}

/** Every submission of A (in order, with its partner) then those only in B (in order). */
export function matchSubmissions(a: readonly SideSubmission[], b: readonly SideSubmission[]): MatchedPair[] {
  const partner: (number | null)[] = new Array(a.length).fill(null);
  const kind: MatchKind[] = new Array(a.length).fill("only-a");
  const taken = new Uint8Array(b.length);
  const byKey = new Map<string, number[]>();
  b.forEach((s, i) => {
    if (s.keyStatus === "valid" && s.key !== null) queue(byKey, s.key, i);
  });
  a.forEach((s, i) => {
    if (s.keyStatus !== "valid" || s.key === null) return;
    const j = byKey.get(s.key)?.shift();
    if (j === undefined) return;
    partner[i] = j;
    kind[i] = "key";
    taken[j] = 1;
  });
  const byPosition = new Map<string, number[]>();
  b.forEach((s, j) => {
    if (!taken[j]) queue(byPosition, positionKey(s), j);
  });
  a.forEach((s, i) => {
    if (partner[i] !== null) return;
    const j = byPosition.get(positionKey(s))?.shift();
    if (j === undefined) return;
    partner[i] = j;
    kind[i] = "position";
    taken[j] = 1;
  });
  const pairs: MatchedPair[] = a.map((s, i) => {
    const j = partner[i];
    return { kind: kind[i] as MatchKind, a: s, b: j === null || j === undefined ? null : (b[j] ?? null) };
  });
  b.forEach((s, j) => {
    if (!taken[j]) pairs.push({ kind: "only-b", a: null, b: s });
  });
  return pairs;
}

function positionKey(s: SideSubmission): string {
  return `${s.session}\u0000${s.prompt}`;
}

function queue(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}
