/** `LoadedTrace.recordBySeq`: the record with a seq, in a trace with gaps in its seqs or none. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoadedTrace } from "./loaded-trace.js";

/** A trace of note records with these seqs (ascending), ingested as a live tap's would be. */
function traceOf(seqs: readonly number[]): LoadedTrace {
  const s = new LoadedTrace("t", "t", "live");
  for (const seq of seqs) s.ingest({ type: "note", seq, ts: seq, level: "info", text: `n${seq}` });
  return s;
}

describe("LoadedTrace.recordBySeq", () => {
  it("finds each record, with and without gaps before it, and nothing for a seq not held", () => {
    const s = traceOf([3, 4, 5, 9, 10, 40]);
    for (const seq of [3, 4, 5, 9, 10, 40]) expect(s.recordBySeq(seq)?.seq).toBe(seq);
    for (const seq of [0, 1, 2, 6, 8, 11, 39, 41, 1_000, -1, 4.5, Number.NaN])
      expect(s.recordBySeq(seq)).toBeUndefined();
    expect(traceOf([]).recordBySeq(1)).toBeUndefined();
  });

  it("answers what a linear search over the records answers (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: -5, max: 300 }), { maxLength: 40 }),
        (steps, start, asks) => {
          const seqs: number[] = [];
          let seq = start;
          for (const step of steps) {
            seqs.push(seq);
            seq += step;
          }
          const s = traceOf(seqs);
          for (const ask of [...asks, ...seqs]) {
            expect(s.recordBySeq(ask)).toBe(s.records.find((r) => r.seq === ask));
          }
        },
      ),
    );
  });
});
