/**
 * The result of `diff A B`: two traces compared by submission (plain, JSON-ready data). Built by
 * trace-diff.ts from two `DiffSide`s (diff-side.ts); rendered as text by the CLI and as `--json`.
 */
import type { VerdictName, VerdictSeverity } from "../analyzer/verdicts.js";

/**
 * How B compares with A on one point: `better`, `worse`, `same`, or `changed` (different, with no
 * direction the evidence supports, e.g. one `ok` verdict for another).
 */
export type DiffMark = "better" | "worse" | "same" | "changed";

/** What `diff` compares per submission. */
export type SubmissionField =
  | "prompt"
  | "outcome"
  | "verdicts"
  | "attempts"
  | "inserts"
  | "messageIds"
  | "latency";

/** One compared point of a matched submission: A's value, B's, the mark and why, in one line. */
export interface FieldDiff {
  readonly field: SubmissionField;
  readonly a: string;
  readonly b: string;
  readonly mark: DiffMark;
  readonly reason: string;
}

/** A verdict as the diff keeps it. */
export interface DiffVerdict {
  readonly name: VerdictName;
  readonly severity: VerdictSeverity;
}

/** One side's submission as a diff row names it (the row id and first seq link to that trace's Timeline row). */
export interface SubmissionRef {
  /** The analyzer row id of the submission in that trace. */
  readonly rowId: number;
  /** The seq of its first attempt's request. */
  readonly firstSeq: number;
  /** The idempotency key (valid keys only). */
  readonly key: string | null;
  /** Its result, in the analyzer's words. */
  readonly result: string;
  readonly verdicts: readonly DiffVerdict[];
}

/**
 * How the two submissions were paired: by idempotency key (both have it), by session position and
 * prompt text, or not at all (`only-a`: gone in B; `only-b`: new in B).
 */
export type MatchKind = "key" | "position" | "only-a" | "only-b";

/** How a submission pair was made, in words (`diff`'s text and the app's Diff tab). */
export const MATCH_WORDS: Readonly<Record<MatchKind, string>> = {
  key: "matched by key",
  position: "matched by session position and prompt",
  "only-a": "only in A",
  "only-b": "only in B",
};

/** One submission compared across the two traces. */
export interface SubmissionDiff {
  readonly match: MatchKind;
  /** The session's position in its trace (0: the first session seen); session ids never match across runs. */
  readonly session: number;
  /** The prompt's preview text. */
  readonly prompt: string;
  readonly a: SubmissionRef | null;
  readonly b: SubmissionRef | null;
  /** Field by field (empty for an unmatched submission). */
  readonly fields: readonly FieldDiff[];
  /** The verdicts' mark: what `--fail-on worse` reads. */
  readonly verdictMark: DiffMark;
  /** Overall: worse if any field is worse, else better if any is, else changed or same (latency left out: it is noise). */
  readonly mark: DiffMark;
}

/** One method's requests compared (session/prompt included: its attempts). */
export interface MethodDiff {
  readonly method: string;
  readonly a: MethodFigures | null;
  readonly b: MethodFigures | null;
  /** worse: more errors; better: fewer; changed: another count; same. Latency is reported, never marked. */
  readonly mark: DiffMark;
  readonly reason: string;
}

/** One method's figures in one trace. */
export interface MethodFigures {
  readonly requests: number;
  /** Error answers, -32800 included. */
  readonly errors: number;
  /** Requests with no answer (pending, lost, never delivered). */
  readonly noAnswer: number;
  readonly p50: number | null;
  readonly p99: number | null;
}

/** One setup fact compared (agent info, protocol version, capabilities, ...). */
export interface SetupDiff {
  readonly field: string;
  readonly a: string | null;
  readonly b: string | null;
  readonly mark: "same" | "changed";
  /** Whether `--fail-on any-change` counts it (the agent command and the tool's version never do). */
  readonly gated: boolean;
}

/** Counts over every submission compared (also those past the listing bound). */
export interface DiffTotals {
  readonly matchedByKey: number;
  readonly matchedByPosition: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly better: number;
  readonly worse: number;
  readonly same: number;
  readonly changed: number;
  /** Submissions whose verdicts got worse (the CI gate). */
  readonly verdictsWorse: number;
  readonly verdictsBetter: number;
}

/** The whole comparison. */
export interface TraceDiff {
  readonly setup: readonly SetupDiff[];
  /** At most `MAX_LISTED_SUBMISSIONS`: the changed ones (A's order, then those only in B), then the same ones. */
  readonly submissions: readonly SubmissionDiff[];
  /** Submissions compared but not listed (past the bound). */
  readonly unlisted: number;
  readonly methods: readonly MethodDiff[];
  readonly totals: DiffTotals;
  /** What was cut or left out of either side (a bound reached), in words. */
  readonly bounded: readonly string[];
}

/** When `diff` exits 1: any verdict worse (default), any change at all, or never. */
export type FailOn = "worse" | "any-change" | "never";
