/**
 * The renderer's immutable snapshot of one trace's timeline: arrays of row copies that change
 * identity only when their rows changed, so React re-renders exactly what moved. Built from the
 * analyzer's `takeChanges()` once per animation frame.
 */
import type { TimelineChanges } from "../../../shared/analyzer/timeline-model.js";
import { VERDICT_NAMES, type VerdictName } from "../../../shared/analyzer/verdicts.js";

/** One trace's rows as the UI renders them: the analyzer's change set, applied, plus counts of what it holds. */
export interface TimelineView extends TimelineChanges {
  /** Records ingested (frames and every other record type). */
  readonly records: number;
  /** Lines of agent stderr held. */
  readonly stderrLines: number;
  /** Entries kept flagged: invalid records, unreadable lines, records with a repeated or decreasing seq. */
  readonly flagged: number;
  /** Records left out for a repeated or decreasing seq, and the first seqs of them (for the banner). */
  readonly seqIssues: number;
  readonly seqIssueSeqs: readonly number[];
}

/** The view of a trace with nothing in it yet. */
export const EMPTY_VIEW: TimelineView = {
  revision: 0,
  submissions: [],
  requests: [],
  malformed: [],
  connections: [],
  agents: [],
  verdictCounts: Object.fromEntries(VERDICT_NAMES.map((n) => [n, 0])) as Record<VerdictName, number>,
  records: 0,
  stderrLines: 0,
  flagged: 0,
  seqIssues: 0,
  seqIssueSeqs: [],
};

/** Where each row id sits in its view array (ids are unique across row kinds). */
export type RowIndex = Map<number, number>;

function merge<T extends { readonly id: number }>(
  rows: readonly T[],
  changed: readonly T[],
  index: RowIndex,
): readonly T[] {
  if (changed.length === 0) return rows;
  const out = rows.slice();
  for (const row of changed) {
    const at = index.get(row.id);
    if (at === undefined) {
      index.set(row.id, out.length);
      out.push(row);
    } else {
      out[at] = row;
    }
  }
  return out;
}

/** Applies one `takeChanges()` result: changed rows replace their copies, new rows are appended. */
export function applyChanges(
  view: TimelineView,
  index: RowIndex,
  changes: TimelineChanges,
  counts: Pick<TimelineView, "records" | "stderrLines" | "flagged" | "seqIssues" | "seqIssueSeqs">,
): TimelineView {
  return {
    revision: changes.revision,
    submissions: merge(view.submissions, changes.submissions, index),
    requests: merge(view.requests, changes.requests, index),
    malformed: merge(view.malformed, changes.malformed, index),
    connections: merge(view.connections, changes.connections, index),
    agents: merge(view.agents, changes.agents, index),
    verdictCounts: changes.verdictCounts,
    records: counts.records,
    stderrLines: counts.stderrLines,
    flagged: counts.flagged,
    seqIssues: counts.seqIssues,
    seqIssueSeqs: counts.seqIssueSeqs,
  };
}
