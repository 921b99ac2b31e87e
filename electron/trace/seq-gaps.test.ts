import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../shared/trace/record.js";
import { gapNote, gapOf, MAX_GAPS_LISTED, SeqGaps } from "./seq-gaps.js";

const note = (seq: number): TraceRecord => ({ seq, ts: seq, type: "note", level: "info", text: "n" });

describe("SeqGaps", () => {
  it("finds each hole in the seqs, ignores repeats, and takes a gap note's range as explained", () => {
    const gaps = new SeqGaps();
    for (const seq of [1, 2, 5, 5, 3, 6]) gaps.take(seq, note(seq));
    gaps.take(20, gapNote(9, 20, "tap-dropped", 1)); // 7-8 unexplained, 9-20 explained (the note is 20)
    gaps.take(21, note(21));
    expect(gaps.result()).toEqual({
      gaps: 3,
      missing: 2 + 2 + 12,
      listed: [
        { from: 3, to: 4, missing: 2 },
        { from: 7, to: 8, missing: 2 },
        { from: 9, to: 20, missing: 12, note: { seq: 20, reason: "tap-dropped" } },
      ],
    });
  });

  it("lists the first holes and counts the rest; a whole trace has none", () => {
    const gaps = new SeqGaps();
    for (let seq = 1; seq <= 200; seq += 2) gaps.take(seq);
    expect(gaps.result().gaps).toBe(99);
    expect(gaps.result().listed).toHaveLength(MAX_GAPS_LISTED);
    const whole = new SeqGaps();
    for (let seq = 1; seq <= 10; seq++) whole.take(seq);
    expect(whole.result()).toEqual({ gaps: 0, missing: 0, listed: [] });
  });

  it("reads only a well-formed gap note ending at its own seq", () => {
    expect(gapOf(gapNote(3, 7, "not-received", 1))).toEqual({
      from: 3,
      to: 7,
      missing: 5,
      reason: "not-received",
    });
    const forged = (gap: unknown) => ({ ...note(7), gap }) as unknown as TraceRecord;
    for (const gap of [
      null,
      5,
      { from: 3, to: 8, reason: "tap-dropped" },
      { from: 9, to: 7, reason: "tap-dropped" },
      { from: 3, to: 7, reason: "x" },
      { from: 0, to: 7, reason: "tap-dropped" },
    ])
      expect(gapOf(forged(gap))).toBeUndefined();
  });
});
