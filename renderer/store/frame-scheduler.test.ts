import { describe, expect, it } from "vitest";
import type { EventBatch } from "../../shared/app/app-event.js";
import { createFrameScheduler } from "./frame-scheduler.js";

describe("createFrameScheduler", () => {
  it("flushes everything pushed within one frame in a single call", () => {
    const frames: Array<() => void> = [];
    const flushes: EventBatch[][] = [];
    const push = createFrameScheduler(
      (b) => flushes.push(b),
      (cb) => frames.push(cb),
    );
    const batch: EventBatch = { events: [], gap: false };
    push(batch);
    push(batch);
    push(batch);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(flushes.map((f) => f.length)).toEqual([3]);
    push(batch);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(flushes.map((f) => f.length)).toEqual([3, 1]);
  });
});
