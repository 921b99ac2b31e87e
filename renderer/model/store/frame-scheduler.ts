/**
 * Coalesces incoming items so the store changes at most once per animation frame, however fast
 * they arrive: the bridge (or an import) pushes, the scheduler flushes on the next frame.
 *
 * With a `FrameBudget` it also keeps the window from drowning in its own renders: when a flush and
 * the frame it caused took long (the main thread is saturated, e.g. a live tap at thousands of
 * frames a second), the next flush waits half as long again, so rendering takes at most about two
 * thirds of the thread and the rest goes to taking in what arrives. The items wait in order and the next flush
 * applies them all at once: the record count and the rows stay true, they just move in fewer,
 * larger steps (a step rendered once, not many that each mount rows pushed off screen by the next).
 */

/** Schedules `callback` for the next frame; `requestAnimationFrame` in the browser. */
export type RequestFrame = (callback: () => void) => void;

/** What the scheduler needs to time its flushes. */
export interface FrameBudget {
  /** A clock in ms (`performance.now`). */
  now(): number;
  /** Calls `callback` once the frame a flush changed has been rendered (a task queued after it). */
  afterFrame(callback: () => void): void;
  /** Calls `callback` after `ms` (`setTimeout`). */
  later(callback: () => void, ms: number): void;
}

/** A flush and its frame taking up to this long (ms) leave the next flush unhurried: it runs on the next frame. */
export const BUSY_MS = 40;
/** After a long frame the next flush waits this share of the frame's time. */
export const REST_SHARE = 0.5;
/** The longest wait (ms) between a long flush's frame and the next flush, so the window is never far behind. */
export const MAX_REST_MS = 200;

/**
 * How long (ms) the next flush waits after a flush whose frame took `cost` ms: nothing while
 * frames are quick, else `REST_SHARE` of the frame's time (at most `MAX_REST_MS`).
 */
export function restAfter(cost: number): number {
  return cost <= BUSY_MS ? 0 : Math.min(cost * REST_SHARE, MAX_REST_MS);
}

/** The browser's budget: `performance.now`, a message-channel task after the frame, `setTimeout`. */
export function browserFrameBudget(): FrameBudget {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return {
    now: () => performance.now(),
    afterFrame(callback) {
      // Posted from the frame's callback (the flush runs in one), the message is handled once that
      // frame is rendered.
      waiting.push(callback);
      channel.port2.postMessage(null);
    },
    later: (callback, ms) => setTimeout(callback, ms),
  };
}

/**
 * Returns a push function: items pushed during one frame reach `flush` together, in order. With
 * `budget`, a flush after a long one waits (`restAfter`), except for items `urgent` says must not.
 */
export function createFrameScheduler<T>(
  flush: (items: T[]) => void,
  requestFrame: RequestFrame,
  budget?: FrameBudget,
  urgent?: (item: T) => boolean,
): (item: T) => void {
  let queued: T[] = [];
  let frameRequested = false;
  let resting = false;
  /** No flush before this time (ms on the budget's clock). */
  let notBefore = Number.NEGATIVE_INFINITY;

  function run(): void {
    frameRequested = false;
    if (queued.length === 0) return;
    const items = queued;
    queued = [];
    if (!budget) {
      flush(items);
      return;
    }
    const started = budget.now();
    flush(items);
    // Until the frame's cost is known, nothing waits; then the next flush waits for the rest.
    notBefore = Number.NEGATIVE_INFINITY;
    budget.afterFrame(() => {
      const done = budget.now();
      notBefore = done + restAfter(done - started);
    });
  }

  function requestNow(): void {
    resting = false;
    if (frameRequested || queued.length === 0) return;
    frameRequested = true;
    requestFrame(run);
  }

  return (item) => {
    queued.push(item);
    if (frameRequested) return;
    const wait = budget ? notBefore - budget.now() : 0;
    if (wait > 0 && !urgent?.(item)) {
      if (!resting) {
        resting = true;
        budget?.later(requestNow, wait);
      }
      return;
    }
    requestNow();
  };
}
