/**
 * Coalesces incoming items so the store changes at most once per animation frame, however fast
 * they arrive: the bridge (or an import) pushes, the scheduler flushes on the next frame.
 */

/** Schedules `callback` for the next frame; `requestAnimationFrame` in the browser. */
export type RequestFrame = (callback: () => void) => void;

/** Returns a push function: items pushed during one frame reach `flush` together, in order. */
export function createFrameScheduler<T>(
  flush: (items: T[]) => void,
  requestFrame: RequestFrame,
): (item: T) => void {
  let queued: T[] = [];
  let scheduled = false;
  return (item) => {
    queued.push(item);
    if (scheduled) return;
    scheduled = true;
    requestFrame(() => {
      scheduled = false;
      const items = queued;
      queued = [];
      flush(items);
    });
  };
}
