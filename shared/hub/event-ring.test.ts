import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventRing } from "./event-ring.js";

describe("EventRing", () => {
  it("hands out growing seqs and serves everything after N", () => {
    const ring = new EventRing<string>(4);
    expect(ring.latestSeq).toBe(0);
    expect(ring.after(0)).toEqual({ events: [], missed: false });
    expect(["a", "b", "c"].map((e) => ring.push(e))).toEqual([1, 2, 3]);
    expect(ring.after(1).events).toEqual([
      { seq: 2, event: "b" },
      { seq: 3, event: "c" },
    ]);
    expect(ring.after(3)).toEqual({ events: [], missed: false });
    expect(ring.after(0, 2).events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it("evicts the oldest when full and says so to a late reader", () => {
    const ring = new EventRing<number>(3);
    for (let i = 1; i <= 5; i++) ring.push(i * 10);
    expect(ring.oldestSeq).toBe(3);
    expect(ring.after(1)).toEqual({
      events: [
        { seq: 3, event: 30 },
        { seq: 4, event: 40 },
        { seq: 5, event: 50 },
      ],
      missed: true,
    });
    expect(ring.after(2).missed).toBe(false);
  });

  it("always returns the contiguous tail after N (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), fc.nat(60), fc.nat(70), (cap, pushes, after) => {
        const ring = new EventRing<number>(cap);
        for (let i = 1; i <= pushes; i++) ring.push(i);
        const { events, missed } = ring.after(after);
        const first = Math.max(after + 1, pushes - cap + 1, 1);
        const expected = [];
        for (let s = first; s <= pushes; s++) expected.push({ seq: s, event: s });
        expect(events).toEqual(expected);
        expect(missed).toBe(after + 1 < Math.max(1, pushes - cap + 1));
      }),
    );
  });

  it("rejects a zero capacity", () => {
    expect(() => new EventRing(0)).toThrow(RangeError);
  });
});
