/**
 * The shared filter on the sequence layout: which placed rows it matches, the layout of only the
 * matching rows, and the indexes of the matching rows (for the count, the marks and next/previous).
 */
import type { PlacedRow, SequenceLayout } from "./sequence-layout.js";

/** Whether a row is one the filter matches (a burst: any of its frames; an idle gap never). */
export function rowMatches(row: PlacedRow, mask: Uint8Array): boolean {
  const it = row.item;
  if (it.kind === "gap") return false;
  if (it.kind === "marker") return mask[it.seq] === 1;
  for (let seq = it.seq; seq <= it.lastSeq; seq++) if (mask[seq] === 1) return true;
  return false;
}

/** The layout with only the matching rows, stacked again (idle gaps dropped: time between them is not idle). */
export function onlyMatching(layout: SequenceLayout, mask: Uint8Array): SequenceLayout {
  const rows: PlacedRow[] = [];
  let y = 0;
  let frames = 0;
  for (const row of layout.rows) {
    if (!rowMatches(row, mask)) continue;
    rows.push({ ...row, y });
    y += row.height;
    if (row.item.kind === "arrow") frames += row.item.count;
  }
  return { ...layout, rows, height: y, frames };
}

/** Indexes (in `layout`) of the rows the filter matches: every row when only matches are drawn. */
export function matchingRowIndexes(layout: SequenceLayout, mask: Uint8Array, onlyMatches: boolean): number[] {
  if (onlyMatches) return layout.rows.map((_, i) => i);
  const out: number[] = [];
  layout.rows.forEach((row, i) => {
    if (rowMatches(row, mask)) out.push(i);
  });
  return out;
}

/** The matching rows among `from`..`to` (inclusive), to mark behind them. */
export function matchingRowsIn(
  layout: SequenceLayout,
  mask: Uint8Array,
  from: number,
  to: number,
): PlacedRow[] {
  const out: PlacedRow[] = [];
  for (let i = from; i <= to; i++) {
    const row = layout.rows[i];
    if (row && rowMatches(row, mask)) out.push(row);
  }
  return out;
}
