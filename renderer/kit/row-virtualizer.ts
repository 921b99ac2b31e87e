/**
 * The VirtualTable's row virtualizer: @tanstack/virtual-core's `Virtualizer` over a scrolling
 * element, like react-virtual's `useVirtualizer`, with two differences that matter to a live trace:
 *
 * - The table renders again only when the rows it renders change (the first and last index and
 *   their count) or their measurements do (new heights), not for each scroll event or change of
 *   the visible range within them: rows are placed by their own offset, so a scroll within the
 *   rendered rows needs no render.
 * - While following the tail, the rendered rows are the last ones (`tailRange`) whatever the
 *   scroll offset: the render that adds rows already shows the bottom, and the scroll to the
 *   bottom that follows (done when the taller body is laid out) renders nothing again. With
 *   react-virtual that scroll rendered the table a second time for each step of the trace.
 */
import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type Range,
  Virtualizer,
  type VirtualizerOptions,
} from "@tanstack/react-virtual";
import { useLayoutEffect, useReducer, useRef, useState } from "react";
import { flushSync } from "react-dom";

/** The options the caller gives: everything but how the element is observed and scrolled. */
export type RowVirtualizerOptions = Omit<
  VirtualizerOptions<HTMLDivElement, Element>,
  "observeElementRect" | "observeElementOffset" | "scrollToFn" | "onChange" | "rangeExtractor"
> & {
  /** True while the table follows new rows at the bottom: the last rows are rendered. */
  readonly followingTail: () => boolean;
  /** Called on each scroll of the element before the virtualizer takes its offset (where `followingTail` is updated). */
  readonly onScrolled: () => void;
};

/**
 * The indexes to render for a visible range: the default (the range and `overscan` on each side),
 * or while following the tail the last rows, as many as the range spans plus `overscan` above.
 */
export function tailRange(range: Range, following: boolean): number[] {
  if (!following || range.count === 0) return defaultRangeExtractor(range);
  const end = range.count - 1;
  const start = Math.max(0, end - (range.endIndex - range.startIndex) - range.overscan);
  const out: number[] = [];
  for (let i = start; i <= end; i++) out.push(i);
  return out;
}

/** What a render shows, to compare with what a change would show. */
function renderedKey(indexes: readonly number[]): string {
  return indexes.length === 0 ? "" : `${indexes[0]}:${indexes[indexes.length - 1]}:${indexes.length}`;
}

/** A `Virtualizer` for the element `getScrollElement` returns, rendering again as described above. */
export function useRowVirtualizer(options: RowVirtualizerOptions): Virtualizer<HTMLDivElement, Element> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const rendered = useRef<{ key: string; measurements: unknown }>({ key: "", measurements: null });
  const { followingTail, onScrolled, ...rest } = options;
  const latest = useRef(onScrolled);
  latest.current = onScrolled;
  const full: VirtualizerOptions<HTMLDivElement, Element> = {
    ...rest,
    observeElementRect,
    // Whether the tail is followed is settled before the rows to render are worked out.
    observeElementOffset: (v, cb) =>
      observeElementOffset(v, (offset, isScrolling) => {
        latest.current();
        cb(offset, isScrolling);
      }),
    scrollToFn: elementScroll,
    rangeExtractor: (range) => tailRange(range, followingTail()),
    onChange: (v, sync) => {
      const shown = rendered.current;
      if (renderedKey(v.getVirtualIndexes()) === shown.key && v.measurementsCache === shown.measurements)
        return;
      // While the user scrolls, the rows are rendered at once, so no blank rows are painted.
      if (sync) flushSync(rerender);
      else rerender();
    },
  };
  const [virtualizer] = useState(() => new Virtualizer(full));
  virtualizer.setOptions(full);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  rendered.current = {
    key: renderedKey(virtualizer.getVirtualIndexes()),
    measurements: virtualizer.measurementsCache,
  };
  return virtualizer;
}
