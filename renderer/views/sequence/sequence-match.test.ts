import { describe, expect, it } from "vitest";
import type { PlacedRow, SequenceItem, SequenceLayout } from "./sequence-layout.js";
import { matchingRowIndexes, matchingRowsIn, onlyMatching } from "./sequence-match.js";

/** A handcrafted layout: an arrow for one frame, a gap, a burst of frames 3..5 and a marker, 10 units a row. */
function layout(): SequenceLayout {
  const arrow = (seq: number, lastSeq: number) =>
    ({ kind: "arrow", seq, lastSeq, count: lastSeq - seq + 1 }) as unknown as SequenceItem;
  const items: SequenceItem[] = [
    arrow(1, 1),
    { kind: "gap", ts: 0, idleMs: 60_000, label: "idle" },
    arrow(3, 5),
    { kind: "marker", marker: "agent-exit", seq: 6, ts: 0, label: "exit", tone: "error" },
  ];
  const rows: PlacedRow[] = items.map((item, i) => ({ item, y: i * 10, height: 10 }));
  return { rows, height: 40, frames: 4, startTs: null };
}

/** A filter mask matching the given seqs. */
const mask = (...seqs: number[]) => {
  const m = new Uint8Array(10);
  for (const s of seqs) m[s] = 1;
  return m;
};

describe("the shared filter on the sequence layout", () => {
  it("a burst matches when any of its frames does; a gap never", () => {
    expect(matchingRowIndexes(layout(), mask(4), false)).toEqual([2]);
    expect(matchingRowIndexes(layout(), mask(1, 6), false)).toEqual([0, 3]);
    expect(matchingRowIndexes(layout(), mask(), false)).toEqual([]);
  });

  it("only the matching rows, stacked again with their frames counted", () => {
    const only = onlyMatching(layout(), mask(5, 6));
    expect(only.rows.map((r) => [r.item.kind, r.y])).toEqual([
      ["arrow", 0],
      ["marker", 10],
    ]);
    expect(only.height).toBe(20);
    expect(only.frames).toBe(3);
    // drawn alone, every row drawn is a match
    expect(matchingRowIndexes(only, mask(5, 6), true)).toEqual([0, 1]);
  });

  it("marks only the matching rows within the range on screen", () => {
    expect(matchingRowsIn(layout(), mask(1, 4, 6), 1, 2).map((r) => r.y)).toEqual([20]);
  });
});
