/**
 * Which of a VirtualTable's rows are rendered and where the view scrolls: the row heights (cached
 * per row object), the virtualizer, following new rows while scrolled to the bottom, bringing a
 * selection made elsewhere into view, and revealing the rows a row just opened.
 */
import { useCallback, useLayoutEffect, useRef } from "react";
import { useRowVirtualizer } from "./row-virtualizer.js";

/** Rows rendered beyond each edge of the screen, so a scroll shows rows at once. */
const OVERSCAN = 10;
/**
 * The same while following new rows at the bottom: none. At thousands of frames a second every
 * live step mounts a screenful of new rows, and rows mounted above the view only cost style and
 * layout; a scroll away from the tail renders with `OVERSCAN` before it paints.
 */
const FOLLOW_OVERSCAN = 0;

/** What `useTableRows` needs of the table's props. */
export interface TableRowsInput<T> {
  readonly rows: readonly T[];
  /** How many of `rows` are shown. */
  readonly count: number;
  readonly getKey: (row: T) => string;
  readonly rowHeight: number;
  readonly rowHeightOf: ((row: T) => number) | undefined;
  readonly selectedKey: string | undefined;
  readonly depthOf: ((row: T) => number) | undefined;
}

/** The first index among the shown rows whose key is `key`, or -1. */
function indexOfKey<T>(rows: readonly T[], count: number, getKey: (row: T) => string, key: string): number {
  for (let i = 0; i < count; i++) if (getKey(rows[i] as T) === key) return i;
  return -1;
}

/** The virtualized rows of a table, its scroll element and body refs, and the view's follow/reveal state. */
export function useTableRows<T>(input: TableRowsInput<T>) {
  const { rows, count, getKey, rowHeight, rowHeightOf, selectedKey, depthOf } = input;
  const scrollRef = useRef<HTMLDivElement>(null);
  const followTail = useRef(true);
  // Row heights: `rowHeightOf` once per row object (a changed row is a new object), so a publish
  // that adds rows does not work out every row's height again; a new `rowHeightOf` (a column
  // width or the text size changed) starts a new cache and re-measures the rows (below).
  const heights = useRef<{ of: TableRowsInput<T>["rowHeightOf"]; cache: WeakMap<object, number> }>({
    of: rowHeightOf,
    cache: new WeakMap(),
  });
  if (heights.current.of !== rowHeightOf) heights.current = { of: rowHeightOf, cache: new WeakMap() };
  const heightOf = (row: T): number => {
    if (!rowHeightOf) return rowHeight;
    if (typeof row !== "object" || row === null) return rowHeightOf(row);
    const { cache } = heights.current;
    let h = cache.get(row);
    if (h === undefined) {
      h = rowHeightOf(row);
      cache.set(row, h);
    }
    return h;
  };
  const getItemKey = useCallback(
    (i: number) => (rows[i] === undefined ? i : getKey(rows[i] as T)),
    [rows, getKey],
  );
  const virtualizer = useRowVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    followingTail: () => followTail.current,
    onScrolled: () => {
      const el = scrollRef.current;
      if (el) followTail.current = el.scrollHeight - el.scrollTop - el.clientHeight < rowHeight / 2;
    },
    estimateSize: (i) => {
      const row = rows[i];
      return row === undefined ? rowHeight : heightOf(row);
    },
    getItemKey,
    overscan: followTail.current ? FOLLOW_OVERSCAN : OVERSCAN,
    paddingStart: rowHeight,
  });
  // The virtualizer reads `estimateSize` only when its rows or keys change: new heights with the
  // same rows are measured here.
  const measuredWith = useRef(rowHeightOf);
  useLayoutEffect(() => {
    if (measuredWith.current === rowHeightOf) return;
    measuredWith.current = rowHeightOf;
    virtualizer.measure();
  }, [rowHeightOf, virtualizer]);

  // Follows new rows while scrolled to the bottom. Where the browser has a ResizeObserver, the scroll
  // happens in its callback, when the body's new height is laid out: asking the virtualizer to scroll
  // right after the commit would make the browser lay out the page then (to read its scrollHeight),
  // and again in the next frame, every frame a live trace grows.
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const observed = typeof ResizeObserver !== "undefined";
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const body = bodyRef.current;
    if (!observed || !el || !body) return;
    const ro = new ResizeObserver(() => {
      if (!followTail.current) return;
      const bottom = el.scrollHeight - el.clientHeight;
      if (el.scrollTop < bottom) el.scrollTop = bottom;
    });
    ro.observe(body);
    return () => ro.disconnect();
  }, [observed]);
  useLayoutEffect(() => {
    if (!observed && followTail.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [count, virtualizer, observed]);

  // A selection made elsewhere (another view's jump, or this table mounting with a selection) is
  // scrolled into view once its row is among the rows; a row already on screen does not move.
  const scrolledTo = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (selectedKey === undefined || selectedKey === scrolledTo.current) return;
    const index = indexOfKey(rows, count, getKey, selectedKey);
    if (index === -1) return;
    scrolledTo.current = selectedKey;
    const el = scrollRef.current;
    const m = virtualizer.measurementsCache[index];
    if (!el || !m) return;
    const top = el.scrollTop + rowHeight;
    if (m.start >= top && m.end <= el.scrollTop + el.clientHeight) return;
    followTail.current = false;
    virtualizer.scrollToIndex(index, { align: "center" });
  }, [selectedKey, rows, count, getKey, rowHeight, virtualizer]);

  // A row just opened: its children are scrolled into view below it, as many as fit with the row
  // itself still on screen (a tree view's reveal), and the view stops following the tail.
  const reveal = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const key = reveal.current;
    if (key === undefined) return;
    const index = indexOfKey(rows, count, getKey, key);
    if (index === -1 || !depthOf) return;
    const depth = depthOf(rows[index] as T);
    let last = index;
    while (last + 1 < count && depthOf(rows[last + 1] as T) > depth) last++;
    if (last === index) return;
    reveal.current = undefined;
    followTail.current = false;
    const el = scrollRef.current;
    const first = virtualizer.measurementsCache[index];
    const end = virtualizer.measurementsCache[last];
    if (!el || !first || !end) return;
    const top = Math.max(el.scrollTop, Math.min(first.start - rowHeight, end.end - el.clientHeight));
    if (top !== el.scrollTop) el.scrollTop = top;
  }, [rows, count, getKey, rowHeight, virtualizer, depthOf]);

  return { scrollRef, bodyRef, virtualizer, reveal };
}
