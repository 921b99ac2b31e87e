/**
 * The Diff tab's rows: two loaded traces compared in the page with the pure diff of `diff A B`
 * (shared/diff/: the same pairing, marks, words and bounds), each submission row linked to its
 * Timeline row on either side (`s<row id>`, first request seq). Pure: no DOM, no store.
 */
import type { TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import {
  type DiffMark,
  type FieldDiff,
  MATCH_WORDS,
  type SubmissionRef,
  type TraceDiff,
} from "../../../shared/diff/diff-model.js";
import { type DiffSide, summarizeSide } from "../../../shared/diff/diff-side.js";
import { SetupCollector } from "../../../shared/diff/setup-collector.js";
import { diffTraces } from "../../../shared/diff/trace-diff.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";

/** One loaded trace as the diff reads it. */
export interface DiffInput {
  readonly header: TraceHeader | null;
  readonly records: readonly TraceRecord[];
  readonly model: TimelineModel;
}

/** One side of a row: the Timeline row it links to, and what it shows. */
export interface RowLink {
  readonly traceId: string;
  /** The Timeline row's key (`s<analyzer row id>`). */
  readonly rowKey: string;
  /** Its first request's seq (what the Details pane opens). */
  readonly seq: number;
  /** `key 7d1f…` or `no key`. */
  readonly keyText: string;
  readonly result: string;
  /** The verdict names, comma-separated, or `none`. */
  readonly verdicts: string;
}

/** One submission compared, ready to render. */
export interface DiffRow {
  readonly id: string;
  readonly mark: DiffMark;
  readonly verdictMark: DiffMark;
  /** `session #1` (sessions numbered from 1, in the order each trace first shows them). */
  readonly session: string;
  readonly prompt: string;
  readonly match: string;
  readonly a: RowLink | null;
  readonly b: RowLink | null;
  /** The fields that differ (all of them when the pair is the same: none are then shown). */
  readonly changed: readonly FieldDiff[];
}

/** Summarises one loaded trace as `diff` does (setup from its header and first `initialize`). */
export function diffSideOf(input: DiffInput): DiffSide {
  const setup = new SetupCollector();
  if (input.header) setup.observeHeader(input.header);
  for (const r of input.records) setup.observe(r);
  return summarizeSide(input.model, setup.facts());
}

/** Compares trace A (before) with trace B (after), as `diff A B` does. */
export function diffLoaded(a: DiffInput, b: DiffInput): TraceDiff {
  return diffTraces(diffSideOf(a), diffSideOf(b));
}

function link(traceId: string, r: SubmissionRef | null): RowLink | null {
  if (!r) return null;
  return {
    traceId,
    rowKey: `s${r.rowId}`,
    seq: r.firstSeq,
    keyText: r.key ? `key ${r.key}` : "no key",
    result: r.result,
    verdicts: r.verdicts.length === 0 ? "none" : r.verdicts.map((v) => v.name).join(", "),
  };
}

/** The listed submissions of `diff` as rows, A's links into `aId`, B's into `bId`. */
export function diffRows(diff: TraceDiff, aId: string, bId: string): DiffRow[] {
  return diff.submissions.map((d, i) => ({
    id: `d${i}`,
    mark: d.mark,
    verdictMark: d.verdictMark,
    session: `session #${d.session + 1}`,
    prompt: d.prompt,
    match: MATCH_WORDS[d.match],
    a: link(aId, d.a),
    b: link(bId, d.b),
    changed: d.fields.filter((f) => f.mark !== "same"),
  }));
}

/** One field as `diff`'s text writes it: `verdicts [worse]: deduplicated → duplicate-insert  (reason)`. */
export function fieldWords(f: FieldDiff): string {
  return `${f.field} [${f.mark}]: ${f.a} → ${f.b}  (${f.reason})`;
}
