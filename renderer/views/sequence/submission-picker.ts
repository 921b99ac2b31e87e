/** The Sequence's "Jump to submission" list: which submissions it offers (the filter narrows it) and their labels. */
import type { Submission } from "../../../shared/analyzer/timeline-model.js";

/** How many submissions the picker lists (the filter narrows a long trace's list). */
export const MAX_PICKER = 500;

/** A submission the picker offers: its number in the trace (from 1) and its first request's seq. */
export interface PickableSubmission {
  readonly sub: Submission;
  readonly number: number;
  readonly seq: number;
}

/** The submissions to offer (up to `MAX_PICKER`) and how many there are; with a mask, only those it matches. */
export function pickableSubmissions(
  submissions: readonly Submission[],
  mask: Uint8Array | null,
): { list: PickableSubmission[]; total: number } {
  const out: PickableSubmission[] = [];
  let total = 0;
  submissions.forEach((sub, i) => {
    const seq = sub.attempts[0]?.requestSeq;
    if (seq === undefined) return;
    if (mask && mask[seq] !== 1) return;
    total++;
    if (out.length < MAX_PICKER) out.push({ sub, number: i + 1, seq });
  });
  return { list: out, total };
}

/** "submission 3 · key 5f0c7b1e… · deploy it" for the picker. */
export function submissionLabel(sub: Submission, n: number): string {
  const key = sub.key ? `key ${sub.key.slice(0, 8)}${sub.key.length > 8 ? "…" : ""}` : "no key";
  const prompt = sub.promptPreview.length > 40 ? `${sub.promptPreview.slice(0, 40)}…` : sub.promptPreview;
  const attempts = sub.attempts.length === 1 ? "" : ` · ${sub.attempts.length} attempts`;
  return `submission ${n} · ${key}${attempts} · ${prompt}`;
}
