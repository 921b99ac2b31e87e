/**
 * Builds the Timeline rows' search text as rows are published, so the first search of a big trace
 * does not build 77k rows' texts inside the keystroke. Only rows with no text cached are built (a
 * changed row is a new copy, so it gets a new text): up to 50 ms at once after a publish, the rest
 * in idle periods; it stops when the rows change again (the next call starts over, skipping the
 * rows already done).
 */

import type { RawOf } from "../filter/timeline-filter.js";
import { searchIndexOf } from "./search-index.js";
import { type TimelineRow, topLevelOf } from "./timeline-rows.js";

/** How long the work may wait for an idle period, and how long it goes on when none came. */
const IDLE_TIMEOUT_MS = 250;
const FORCED_SLICE_MS = 4;
/** How long the work goes on at once when rows are published, before waiting for idle periods. */
const AT_ONCE_MS = 50;

/** Builds the missing texts of `rows` (see above); returns a function that cancels what is left. */
export function prepareSearchText(rows: readonly TimelineRow[], rawOf: RawOf): () => void {
  const index = searchIndexOf(topLevelOf(rows));
  let next = 0;
  let handle: number | undefined;
  const step = (deadline: IdleDeadline) => {
    handle = undefined;
    // A busy import leaves few idle periods: past the timeout, a short slice goes on anyway.
    const forcedUntil = deadline.didTimeout ? performance.now() + FORCED_SLICE_MS : 0;
    next = index.prepare(rawOf, next, () => deadline.timeRemaining() >= 1 || performance.now() < forcedUntil);
    if (next >= 0) handle = whenIdle(step);
  };
  // The rows a publish brought are usually done at once, right after it (a budget keeps a
  // switch to a big trace from freezing the window); the rest goes on in idle periods.
  const end = performance.now() + AT_ONCE_MS;
  step({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
  return () => {
    if (handle !== undefined) cancelIdle(handle);
  };
}

/** requestIdleCallback, or (where there is none) a timer that gives a 10 ms budget. */
function whenIdle(step: (deadline: IdleDeadline) => void): number {
  if (typeof requestIdleCallback === "function")
    return requestIdleCallback(step, { timeout: IDLE_TIMEOUT_MS });
  return setTimeout(() => {
    const end = performance.now() + 10;
    step({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
  }, 0) as unknown as number;
}

function cancelIdle(handle: number): void {
  if (typeof cancelIdleCallback === "function") cancelIdleCallback(handle);
  else clearTimeout(handle);
}
