import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventRing, type RingSlice } from "./event-ring.js";

/** The events of a slice, one text each (the test texts have no commas). */
const eventsOf = (slice: RingSlice) => (slice.count === 0 ? [] : slice.texts.join(",").split(","));

/** Pushes runs of events named after their seq (`e1`, `e2`, ...). */
function pushRuns(ring: EventRing, sizes: readonly number[]): void {
  for (const n of sizes) {
    const first = ring.latestSeq + 1;
    ring.push(Array.from({ length: n }, (_, i) => `e${first + i}`));
  }
}

describe("EventRing", () => {
  it("hands out growing seqs and serves everything after N", () => {
    const ring = new EventRing(4);
    expect(ring.latestSeq).toBe(0);
    expect(ring.after(0)).toEqual({ texts: [], count: 0, lastSeq: 0, missed: false });
    expect(ring.push(["a"])).toBe(1);
    expect(ring.push(["b", "c"])).toBe(2);
    expect(ring.after(1)).toEqual({ texts: ["b,c"], count: 2, lastSeq: 3, missed: false });
    expect(ring.after(3)).toEqual({ texts: [], count: 0, lastSeq: 3, missed: false });
    expect(ring.after(0, 2)).toEqual({ texts: ["a", "b"], count: 2, lastSeq: 2, missed: false });
    expect(ring.push([])).toBe(4);
    expect(ring.latestSeq).toBe(3);
  });

  it("evicts the oldest when full and says so to a late reader", () => {
    const ring = new EventRing(3);
    pushRuns(ring, [2, 1, 2]);
    expect(ring.oldestSeq).toBe(3);
    expect(ring.size).toBe(3);
    expect(ring.after(1)).toEqual({ texts: ["e3", "e4,e5"], count: 3, lastSeq: 5, missed: true });
    expect(ring.after(2).missed).toBe(false);
  });

  it("hands back a range as one slice per run it touches", () => {
    const ring = new EventRing(100);
    pushRuns(ring, [3, 3, 3]);
    expect(ring.after(1, 6).texts).toEqual(["e2,e3", "e4,e5,e6", "e7"]);
  });

  it("always returns the contiguous tail after N (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 20 }),
        fc.nat(80),
        fc.integer({ min: 1, max: 90 }),
        (cap, runs, after, limit) => {
          const ring = new EventRing(cap);
          pushRuns(ring, runs);
          const pushes = runs.reduce((a, b) => a + b, 0);
          const oldest = Math.max(1, pushes - cap + 1);
          const slice = ring.after(after, limit);
          const expected = [];
          for (let s = Math.max(after + 1, oldest); s <= pushes && expected.length < limit; s++)
            expected.push(`e${s}`);
          expect(eventsOf(slice)).toEqual(expected);
          expect(slice.count).toBe(expected.length);
          if (expected.length > 0) expect(slice.lastSeq).toBe(Number(expected.at(-1)?.slice(1)));
          expect(slice.missed).toBe(after + 1 < oldest);
          expect(ring.oldestSeq).toBe(oldest);
        },
      ),
    );
  });

  it("bounded by text too, evicts the oldest events until both bounds hold (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 6 }), { maxLength: 15 }),
        (maxEvents, maxChars, runs) => {
          const ring = new EventRing({ maxEvents, maxChars });
          // the model: every event, oldest first, with the run it came in; evicted one at a time
          const model: { text: string; run: number }[] = [];
          const held = () =>
            model.reduce((n, e, i) => n + e.text.length + (model[i + 1]?.run === e.run ? 1 : 0), 0);
          runs.forEach((texts, run) => {
            ring.push(texts.map((t) => t.replaceAll(",", ";")));
            for (const t of texts) model.push({ text: t.replaceAll(",", ";"), run });
            while (model.length > maxEvents || held() > maxChars) model.shift();
            expect(ring.size).toBe(model.length);
            expect(ring.heldChars).toBe(held());
            expect(eventsOf(ring.after(0))).toEqual(model.map((e) => e.text));
          });
        },
      ),
    );
  });

  it("rejects a zero capacity or text bound", () => {
    expect(() => new EventRing(0)).toThrow(RangeError);
    expect(() => new EventRing({ maxEvents: 5, maxChars: 0 })).toThrow(RangeError);
  });
});
