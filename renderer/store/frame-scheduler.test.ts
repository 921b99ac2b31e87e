import { describe, expect, it } from "vitest";
import { createFrameScheduler } from "./frame-scheduler.js";

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
