import { describe, expect, it } from "vitest";
import { type WaterfallSpan, windowOf } from "./waterfall.js";
import { barOnAxis, gapAxis } from "./waterfall-gaps.js";

const done = (start: number, end: number): WaterfallSpan => ({ start, end, state: "done" });
const HOUR = 3_600_000;

describe("gapAxis: long idle gaps compressed", () => {
  it("cuts a gap over 10× the median step into a fixed-width break that keeps its real duration", () => {
    // Two bursts 100 ms apart, then an hour of nothing, then one more request.
    const spans = [done(0, 100), done(200, 300), done(HOUR, HOUR + 100)];
    const track = windowOf(spans) as { start: number; end: number };
    const axis = gapAxis(spans, track);
    expect(axis.breaks).toHaveLength(1);
    const [b] = axis.breaks;
    expect(b?.end as number).toBe(HOUR);
    expect((b?.end as number) - (b?.start as number)).toBe(HOUR - 300); // the real idle, shown on the break
    // 400 ms of real time share 96% of the width; the break takes 4%.
    expect(axis.place(300)).toBeCloseTo(0.72, 6);
    expect(b?.left).toBeCloseTo(0.72, 6);
    expect(axis.place(HOUR)).toBeCloseTo(0.76, 6);
    expect(axis.place(HOUR + 100)).toBe(1);
    const last = barOnAxis(spans[2] as WaterfallSpan, axis);
    expect(last.left).toBeCloseTo(0.76, 6);
    expect(last.width).toBeCloseTo(0.24, 6);
    // Linear, the first two bars would be under 0.01% of the width.
    expect(barOnAxis(spans[0] as WaterfallSpan, axis).width).toBeCloseTo(0.24, 6);
  });

  it("stays linear without a long gap, across a pending span, and past its bound", () => {
    const even = [done(0, 100), done(200, 300), done(400, 500)];
    expect(gapAxis(even, { start: 0, end: 500 }).breaks).toEqual([]);
    // A pending request covers everything after it: the idle after it is not idle.
    const pending = [
      done(0, 100),
      { start: 200, end: null, state: "pending" } as const,
      done(HOUR, HOUR + 1),
    ];
    expect(gapAxis(pending, { start: 0, end: HOUR + 1 }).breaks).toEqual([]);
    const many = Array.from({ length: 50 }, (_, i) => done(i * 10, i * 10 + 5)).concat(done(HOUR, HOUR + 5));
    expect(gapAxis(many, { start: 0, end: HOUR + 5 }).breaks).toHaveLength(1);
    expect(gapAxis(many, { start: 0, end: HOUR + 5 }, { maxSpans: 10 }).breaks).toEqual([]);
    // A sub-second idle is drawn as it is (minGapMs).
    expect(gapAxis([done(0, 1), done(2, 3), done(900, 901)], { start: 0, end: 901 }).breaks).toEqual([]);
  });

  it("keeps at most maxBreaks, the longest gaps", () => {
    const spans = [done(0, 10), done(20, 30), done(40, 50)];
    for (let i = 1; i <= 5; i++)
      spans.push(done(i * HOUR, i * HOUR + 10), done(i * HOUR + 20, i * HOUR + 30));
    const axis = gapAxis(spans, { start: 0, end: 5 * HOUR + 30 }, { maxBreaks: 3 });
    expect(axis.breaks).toHaveLength(3);
    const xs = spans.map((s) => axis.place(s.start));
    expect(xs).toEqual([...xs].sort((a, b) => a - b)); // still in time order
  });
});
