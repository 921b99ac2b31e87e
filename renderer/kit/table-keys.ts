/**
 * A VirtualTable's keyboard (the ARIA treegrid pattern): arrow keys, Page Up/Down, Home and End move
 * the selection; Right/Left (or Enter) expand and collapse; the menu key or Shift+F10 opens the
 * selected row's context menu.
 */
import type { KeyboardEvent } from "react";

/** What the keyboard handler reads and does. */
export interface TableKeysInput<T> {
  readonly rows: readonly T[];
  /** How many of `rows` are shown. */
  readonly count: number;
  readonly getKey: (row: T) => string;
  readonly selectedKey: string | undefined;
  readonly rowHeight: number;
  /** The scrolling element's height in px (a page is that many rows less two). */
  readonly viewHeight: () => number | undefined;
  readonly onExpand: ((row: T, open: boolean) => void) | undefined;
  readonly isExpanded: ((row: T) => boolean | undefined) | undefined;
  readonly onRowMenu: ((row: T, at: { readonly x: number; readonly y: number }) => void) | undefined;
  /** Selects the row at an index (clamped) and scrolls it into view. */
  readonly move: (index: number) => void;
  /** Called with a row's key before it is opened, so its children are revealed below it. */
  readonly willOpen: (key: string) => void;
}

/** Handles a key pressed on the table: the selection moves, a row opens or closes, or its menu opens. */
export function onTableKey<T>(e: KeyboardEvent<HTMLElement>, k: TableKeysInput<T>): void {
  const { rows, count, getKey, selectedKey, rowHeight } = k;
  if (count === 0) return;
  const selectedIndex = selectedKey === undefined ? -1 : rows.findIndex((r) => getKey(r) === selectedKey);
  const selected = selectedIndex >= 0 ? rows[selectedIndex] : undefined;
  if (selected !== undefined && k.onRowMenu && (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey))) {
    e.preventDefault();
    const el = document.getElementById(`vrow-${getKey(selected)}`)?.getBoundingClientRect();
    k.onRowMenu(selected, { x: el?.left ?? 0, y: el?.bottom ?? 0 });
    return;
  }
  if (selected !== undefined && k.onExpand) {
    const open = k.isExpanded?.(selected);
    if ((e.key === "ArrowRight" && open === false) || (e.key === "ArrowLeft" && open === true)) {
      e.preventDefault();
      if (e.key === "ArrowRight") k.willOpen(getKey(selected));
      k.onExpand(selected, e.key === "ArrowRight");
      return;
    }
    if (e.key === "Enter" && open !== undefined) {
      e.preventDefault();
      if (!open) k.willOpen(getKey(selected));
      k.onExpand(selected, !open);
      return;
    }
  }
  const page = Math.max(1, Math.floor((k.viewHeight() ?? rowHeight) / rowHeight) - 2);
  const from = selectedIndex === -1 ? (e.key === "ArrowUp" ? count : -1) : selectedIndex;
  const target: Record<string, number> = {
    ArrowDown: from + 1,
    ArrowUp: from - 1,
    PageDown: from + page,
    PageUp: from - page,
    Home: 0,
    End: count - 1,
  };
  const next = target[e.key];
  if (next === undefined) return;
  e.preventDefault();
  k.move(next);
}
