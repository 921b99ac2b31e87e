import { describe, expect, it } from "vitest";
import {
  BUSY_MS,
  createFrameScheduler,
  type FrameBudget,
  MAX_REST_MS,
  REST_SHARE,
  restAfter,
} from "./frame-scheduler.js";

describe("createFrameScheduler", () => {
  it("flushes everything pushed within one frame in a single call, in order", () => {
    const frames: Array<() => void> = [];
    const flushes: number[][] = [];
    const push = createFrameScheduler<number>(
      (b) => flushes.push(b),
      (cb) => frames.push(cb),
    );
    push(1);
    push(2);
    push(3);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(flushes).toEqual([[1, 2, 3]]);
    push(4);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });
});

describe("restAfter", () => {
  it("rests nothing after a quick frame, a share of a slow one's time, and at most MAX_REST_MS", () => {
    expect(restAfter(5)).toBe(0);
    expect(restAfter(BUSY_MS)).toBe(0);
    expect(restAfter(BUSY_MS + 10)).toBe((BUSY_MS + 10) * REST_SHARE);
    expect(restAfter(10 * MAX_REST_MS)).toBe(MAX_REST_MS);
  });
});

/** A hand-driven clock, frame queue, after-frame queue and timers. */
function fakeBudget() {
  let now = 0;
  const frames: Array<() => void> = [];
  const afterFrames: Array<() => void> = [];
  const timers: Array<{ at: number; cb: () => void }> = [];
  const budget: FrameBudget = {
    now: () => now,
    afterFrame: (cb) => afterFrames.push(cb),
    later: (cb, ms) => timers.push({ at: now + ms, cb }),
  };
  return {
    budget,
    frames,
    timers,
    requestFrame: (cb: () => void) => frames.push(cb),
    /** Runs the next frame, which (with its render) takes `cost` ms, then its after-frame task. */
    frame(cost: number) {
      frames.shift()!();
      now += cost;
      while (afterFrames.length > 0) afterFrames.shift()!();
    },
    /** Moves the clock on by `ms` and fires the timers now due. */
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers.splice(0, timers.length, ...timers.filter((t) => t.at > now));
      for (const t of due) t.cb();
    },
  };
}

describe("createFrameScheduler with a budget", () => {
  it("flushes on the next frame while frames are quick", () => {
    const f = fakeBudget();
    const flushes: number[][] = [];
    const push = createFrameScheduler<number>((b) => flushes.push(b), f.requestFrame, f.budget);
    push(1);
    f.frame(10);
    push(2);
    expect(f.frames).toHaveLength(1);
    expect(f.timers).toHaveLength(0);
    f.frame(10);
    expect(flushes).toEqual([[1], [2]]);
  });

  it("after a slow frame, holds what arrives for a share of that frame's time, then flushes it all in order", () => {
    const f = fakeBudget();
    const flushes: number[][] = [];
    const push = createFrameScheduler<number>((b) => flushes.push(b), f.requestFrame, f.budget);
    push(1);
    f.frame(150);
    push(2);
    push(3);
    // Resting: no frame asked for yet, one timer for the rest.
    expect(f.frames).toHaveLength(0);
    expect(f.timers.map((t) => t.at)).toEqual([150 + 150 * REST_SHARE]);
    f.advance(50);
    push(4);
    expect(f.frames).toHaveLength(0);
    f.advance(150 * REST_SHARE - 50);
    expect(f.frames).toHaveLength(1);
    f.frame(10);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
    // A quick frame ends the rest: the next item flushes on the next frame.
    push(5);
    expect(f.frames).toHaveLength(1);
  });

  it("never rests longer than MAX_REST_MS, however slow the frame", () => {
    const f = fakeBudget();
    const push = createFrameScheduler<number>(() => undefined, f.requestFrame, f.budget);
    push(1);
    f.frame(5_000);
    push(2);
    expect(f.timers.map((t) => t.at)).toEqual([5_000 + MAX_REST_MS]);
  });

  it("flushes an urgent item on the next frame even while resting, with what waited before it", () => {
    const f = fakeBudget();
    const flushes: string[][] = [];
    const push = createFrameScheduler<string>(
      (b) => flushes.push(b),
      f.requestFrame,
      f.budget,
      (item) => item.startsWith("import"),
    );
    push("event 1");
    f.frame(200);
    push("event 2");
    expect(f.frames).toHaveLength(0);
    push("import a");
    expect(f.frames).toHaveLength(1);
    f.frame(10);
    expect(flushes).toEqual([["event 1"], ["event 2", "import a"]]);
    // The rest's timer, when it fires, finds nothing queued: no empty flush.
    f.advance(500);
    expect(f.frames).toHaveLength(0);
    expect(flushes).toHaveLength(2);
  });
});
