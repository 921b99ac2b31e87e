/**
 * Coalesces incoming batches so the store changes at most once per animation frame, however
 * fast frames arrive: the bridge pushes, the scheduler flushes on the next frame.
 */
import type { EventBatch } from "../../shared/app/app-event.js";

/** Schedules `callback` for the next frame; `requestAnimationFrame` in the browser. */
export type RequestFrame = (callback: () => void) => void;

/** Returns a push function: batches pushed during one frame reach `flush` together. */
export function createFrameScheduler(
  flush: (batches: EventBatch[]) => void,
  requestFrame: RequestFrame,
): (batch: EventBatch) => void {
  let queued: EventBatch[] = [];
  let scheduled = false;
  return (batch) => {
    queued.push(batch);
    if (scheduled) return;
    scheduled = true;
    requestFrame(() => {
      scheduled = false;
      const batches = queued;
      queued = [];
      flush(batches);
    });
  };
}
