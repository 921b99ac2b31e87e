/**
 * `diff A B`: two traces compared by submission (submission-match.ts, submission-compare.ts),
 * other requests by method and the setup, with totals over everything and a listing bounded to
 * `MAX_LISTED_SUBMISSIONS` rows. `diffExitStatus` is the CI gate.
 */
import type { DiffTotals, FailOn, SubmissionDiff, TraceDiff } from "./diff-model.js";
import type { DiffSide } from "./diff-side.js";
import { compareMethods } from "./method-compare.js";
import { compareSetup } from "./setup-compare.js";
import { compareSubmission } from "./submission-compare.js";
import { matchSubmissions } from "./submission-match.js";

/** At most this many submission rows are listed (changed ones first kept); every one is counted. */
export const MAX_LISTED_SUBMISSIONS = 2000;

/** Compares trace A (before) with trace B (after). */
export function diffTraces(a: DiffSide, b: DiffSide): TraceDiff {
  const totals = {
    matchedByKey: 0,
    matchedByPosition: 0,
    onlyA: 0,
    onlyB: 0,
    better: 0,
    worse: 0,
    same: 0,
    changed: 0,
    verdictsWorse: 0,
    verdictsBetter: 0,
  } satisfies Record<keyof DiffTotals, number>;
  const changed: SubmissionDiff[] = [];
  const same: SubmissionDiff[] = [];
  let compared = 0;
  for (const pair of matchSubmissions(a.submissions, b.submissions)) {
    const d = compareSubmission(pair);
    compared++;
    if (d.match === "key") totals.matchedByKey++;
    else if (d.match === "position") totals.matchedByPosition++;
    else if (d.match === "only-a") totals.onlyA++;
    else totals.onlyB++;
    totals[d.mark]++;
    if (d.verdictMark === "worse") totals.verdictsWorse++;
    if (d.verdictMark === "better") totals.verdictsBetter++;
    const list = d.mark === "same" ? same : changed;
    if (list.length < MAX_LISTED_SUBMISSIONS) list.push(d);
  }
  // Changed rows first, then same rows in the room left.
  const listed = [...changed, ...same.slice(0, MAX_LISTED_SUBMISSIONS - changed.length)];
  const unlisted = compared - listed.length;
  const bounded: string[] = [];
  if (unlisted > 0)
    bounded.push(`${unlisted} submission(s) compared but not listed (at most ${MAX_LISTED_SUBMISSIONS})`);
  if (a.methodsLeftOut > 0)
    bounded.push(`A: ${a.methodsLeftOut} request(s) of methods past the method bound not compared`);
  if (b.methodsLeftOut > 0)
    bounded.push(`B: ${b.methodsLeftOut} request(s) of methods past the method bound not compared`);
  return {
    setup: compareSetup(a.setup, b.setup),
    submissions: listed,
    unlisted,
    methods: compareMethods(a.methods, b.methods),
    totals,
    bounded,
  };
}

/**
 * The exit status `diff` returns for `failOn`: 1 when a verdict got worse (`worse`: a more severe
 * verdict, or a new submission with a violation or client issue), or anything changed besides
 * latency and ungated setup facts (`any-change`); never with `never`; else 0.
 */
export function diffExitStatus(diff: TraceDiff, failOn: FailOn): number {
  if (failOn === "never") return 0;
  if (diff.totals.verdictsWorse > 0) return 1;
  if (failOn === "worse") return 0;
  const t = diff.totals;
  if (t.better + t.worse + t.changed > 0) return 1;
  if (diff.methods.some((m) => m.mark !== "same")) return 1;
  return diff.setup.some((s) => s.gated && s.mark === "changed") ? 1 : 0;
}
