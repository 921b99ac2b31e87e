import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventRing, type RingSlice } from "./event-ring.js";

/** Pushes texts as one run: the payload is them joined by commas (the test texts have none). */
function push(ring: EventRing<string>, texts: readonly string[]): number {
  const ends: number[] = [];
  let at = -1;
  for (const t of texts) {
    at += t.length + 1;
    ends.push(at);
  }
  return ring.push(texts.join(","), ends);
}

/** Each segment's text. */
const textsOf = (slice: RingSlice<string>) => slice.segments.map((s) => s.payload.slice(s.start, s.end));

/** The events of a slice, one text each. */
const eventsOf = (slice: RingSlice<string>) => textsOf(slice).flatMap((t) => t.split(","));

/** Pushes runs of events named after their seq (`e1`, `e2`, ...). */
function pushRuns(ring: EventRing<string>, sizes: readonly number[]): void {
  for (const n of sizes) {
    const first = ring.latestSeq + 1;
    push(
      ring,
      Array.from({ length: n }, (_, i) => `e${first + i}`),
    );
  }
}

describe("EventRing", () => {
  it("hands out growing seqs and serves everything after N", () => {
    const ring = new EventRing<string>(4);
    expect(ring.latestSeq).toBe(0);
    expect(ring.after(0)).toEqual({ segments: [], count: 0, lastSeq: 0, missed: false });
    expect(push(ring, ["a"])).toBe(1);
    expect(push(ring, ["b", "c"])).toBe(2);
    expect(ring.after(1)).toEqual({
      segments: [{ payload: "b,c", first: 2, count: 2, start: 0, end: 3 }],
      count: 2,
      lastSeq: 3,
      missed: false,
    });
    expect(ring.after(3)).toEqual({ segments: [], count: 0, lastSeq: 3, missed: false });
    const two = ring.after(0, 2);
    expect([textsOf(two), two.count, two.lastSeq]).toEqual([["a", "b"], 2, 2]);
    expect(push(ring, [])).toBe(4);
    expect(ring.latestSeq).toBe(3);
  });

  it("evicts the oldest when full and says so to a late reader", () => {
    const ring = new EventRing<string>(3);
    pushRuns(ring, [2, 1, 2]);
    expect(ring.oldestSeq).toBe(3);
    expect(ring.size).toBe(3);
    const late = ring.after(1);
    expect([textsOf(late), late.count, late.lastSeq, late.missed]).toEqual([["e3", "e4,e5"], 3, 5, true]);
    expect(ring.after(2).missed).toBe(false);
  });

  it("hands back a range as one slice per run it touches", () => {
    const ring = new EventRing<string>(100);
    pushRuns(ring, [3, 3, 3]);
    const range = ring.after(1, 6);
    expect(textsOf(range)).toEqual(["e2,e3", "e4,e5,e6", "e7"]);
    expect(range.segments.map((s) => [s.first, s.count])).toEqual([
      [2, 2],
      [4, 3],
      [7, 1],
    ]);
  });

  it("always returns the contiguous tail after N (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 20 }),
        fc.nat(80),
        fc.integer({ min: 1, max: 90 }),
        (cap, runs, after, limit) => {
          const ring = new EventRing<string>(cap);
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

  it("bounded by size too, evicts the oldest events until both bounds hold (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 6 }), { maxLength: 15 }),
        (maxEvents, maxBytes, runs) => {
          const ring = new EventRing<string>({ maxEvents, maxBytes });
          // the model: every event, oldest first, with the run it came in; evicted one at a time
          const model: { text: string; run: number }[] = [];
          const held = () =>
            model.reduce((n, e, i) => n + e.text.length + (model[i + 1]?.run === e.run ? 1 : 0), 0);
          runs.forEach((texts, run) => {
            push(
              ring,
              texts.map((t) => t.replaceAll(",", ";")),
            );
            for (const t of texts) model.push({ text: t.replaceAll(",", ";"), run });
            while (model.length > maxEvents || held() > maxBytes) model.shift();
            expect(ring.size).toBe(model.length);
            expect(ring.heldBytes).toBe(held());
            expect(eventsOf(ring.after(0))).toEqual(model.map((e) => e.text));
          });
        },
      ),
    );
  });

  it("rejects a zero capacity or size bound", () => {
    expect(() => new EventRing(0)).toThrow(RangeError);
    expect(() => new EventRing({ maxEvents: 5, maxBytes: 0 })).toThrow(RangeError);
  });
});
