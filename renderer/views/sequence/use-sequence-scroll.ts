/**
 * Where the Sequence's scrolling body is: its size and offset (measured, and followed as it
 * scrolls), following a live trace's tail while scrolled to the bottom, and bringing a selection
 * made elsewhere into view.
 */
import { type UIEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { rowIndexOfSeq, type SequenceLayout } from "./sequence-layout.js";

/** The scrolling body's offset and size, screen px. */
export interface SequenceViewport {
  readonly top: number;
  readonly height: number;
  readonly width: number;
}

/** The body's and lane titles' refs, the viewport, its scroll handler and `scrollToRow`. */
export function useSequenceScroll(layout: SequenceLayout, scale: number, selectedSeq: number | null) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const lanesRef = useRef<HTMLDivElement>(null);
  const previousHeight = useRef(0);
  const [view, setView] = useState<SequenceViewport>({ top: 0, height: 600, width: 960 });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () =>
      setView((v) => ({ ...v, top: el.scrollTop, height: el.clientHeight, width: el.clientWidth }));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Follow a live trace's tail while the view was scrolled to the bottom; a trace that arrives whole starts at the top.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = previousHeight.current;
    previousHeight.current = layout.height * scale;
    if (el && before > 0 && el.scrollTop + el.clientHeight >= before - 4)
      el.scrollTop = layout.height * scale;
  }, [layout.height, scale]);

  // Bring an externally selected frame into view (when the selection changes, not on every new frame).
  // biome-ignore lint/correctness/useExhaustiveDependencies: layout is read, not watched
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || selectedSeq === null) return;
    const row = layout.rows[rowIndexOfSeq(layout, selectedSeq)];
    const [y, h] = row ? [row.y * scale, row.height * scale] : [0, 0];
    if (row && (y < el.scrollTop || y + h > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, y - el.clientHeight / 3);
    }
  }, [selectedSeq]);

  /** Scrolls a row of the current layout to a third of the way down. */
  const scrollToRow = (index: number) => {
    const el = scrollRef.current;
    const row = layout.rows[index];
    if (!el || !row) return;
    el.scrollTop = Math.max(0, row.y - el.clientHeight / 3);
    setView((v) => ({ ...v, top: el.scrollTop }));
  };

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    // the lane titles move sideways with the diagram (wider than its pane with large text)
    if (lanesRef.current) lanesRef.current.scrollLeft = el.scrollLeft;
    setView((v) => (v.top === el.scrollTop ? v : { ...v, top: el.scrollTop }));
  }, []);

  return { scrollRef, lanesRef, view, onScroll, scrollToRow };
}
