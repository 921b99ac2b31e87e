/**
 * A generic virtualized table: @tanstack/react-virtual decides which rows are on screen (fixed row
 * height) and @tanstack/react-table (v9) owns the columns and renders the cells of just those rows,
 * so a 100k-row list costs a screenful of row objects per render. Rows are keyed by `getKey`; the
 * view follows new rows only while scrolled to the bottom. Arrow keys, Page Up/Down, Home and End
 * move the selection, Right/Left (or Enter) expand and collapse (ARIA treegrid pattern).
 */
import {
  type ColumnDef,
  columnSizingFeature,
  createColumnHelper,
  type RowData,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef } from "react";

/** The table features every VirtualTable registers. */
export const virtualTableFeatures = tableFeatures({ columnSizingFeature });

/** A column of a VirtualTable over rows of type T. */
// biome-ignore lint/suspicious/noExplicitAny: react-table's column arrays are heterogeneous in their value type.
export type VirtualColumn<T extends RowData> = ColumnDef<typeof virtualTableFeatures, T, any>;

/** A column helper bound to VirtualTable's features. */
export function virtualColumnHelper<T extends RowData>() {
  return createColumnHelper<typeof virtualTableFeatures, T>();
}

/** Props of VirtualTable. */
export interface VirtualTableProps<T extends RowData> {
  /** Accessible name of the grid. */
  readonly label: string;
  /** The rows; may be a growing array when `count` says how many to show. */
  readonly rows: readonly T[];
  /** How many rows to show (default `rows.length`); changing it re-renders. */
  readonly count?: number;
  readonly getKey: (row: T) => string;
  /** Must be stable (module scope or memoised). */
  readonly columns: VirtualColumn<T>[];
  readonly selectedKey: string | undefined;
  readonly onSelect: (row: T) => void;
  /** Expand (`true`) or collapse (`false`) a row; rows without it are leaves. */
  readonly onExpand?: (row: T, open: boolean) => void;
  readonly isExpanded?: (row: T) => boolean | undefined;
  /** Opens a row's context menu at a point: right-click on a row, or the menu key / Shift+F10 on the selected one. */
  readonly onRowMenu?: (row: T, at: { readonly x: number; readonly y: number }) => void;
  /** Nesting level for `aria-level` (0 = top). */
  readonly depthOf?: (row: T) => number;
  /** Shown instead of the grid body while there are no rows. */
  readonly empty?: ReactNode;
  /** Row height in px; must match the CSS `--row-height` in use. */
  readonly rowHeight: number;
}

/** Column sizes are px at the normal 15px text size; as `em` they grow with the large-text option. */
const columnWidth = (size: number) => `${size / 15}em`;

/** Renders the grid. */
export function VirtualTable<T extends RowData>(props: VirtualTableProps<T>) {
  const { rows, columns, selectedKey, onSelect, rowHeight, getKey } = props;
  const count = Math.min(props.count ?? rows.length, rows.length);
  const scrollRef = useRef<HTMLDivElement>(null);
  const followTail = useRef(true);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (i) => (rows[i] === undefined ? i : getKey(rows[i] as T)),
    overscan: 10,
    paddingStart: rowHeight,
  });
  const items = virtualizer.getVirtualItems();
  const visible = items.map((item) => rows[item.index] as T);
  const table = useTable({ features: virtualTableFeatures, columns, data: visible, getRowId: getKey });
  const tableRows = table.getRowModel().rows;

  useLayoutEffect(() => {
    if (followTail.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [count, virtualizer]);

  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(count - 1, index));
    const row = rows[clamped];
    if (row === undefined) return;
    onSelect(row);
    virtualizer.scrollToIndex(clamped, { align: "auto" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (count === 0) return;
    const selectedIndex = selectedKey === undefined ? -1 : rows.findIndex((r) => getKey(r) === selectedKey);
    const selected = selectedIndex >= 0 ? rows[selectedIndex] : undefined;
    if (
      selected !== undefined &&
      props.onRowMenu &&
      (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey))
    ) {
      e.preventDefault();
      const el = document.getElementById(`vrow-${getKey(selected)}`)?.getBoundingClientRect();
      props.onRowMenu(selected, { x: el?.left ?? 0, y: el?.bottom ?? 0 });
      return;
    }
    if (selected !== undefined && props.onExpand) {
      const open = props.isExpanded?.(selected);
      if ((e.key === "ArrowRight" && open === false) || (e.key === "ArrowLeft" && open === true)) {
        e.preventDefault();
        props.onExpand(selected, e.key === "ArrowRight");
        return;
      }
      if (e.key === "Enter" && open !== undefined) {
        e.preventDefault();
        props.onExpand(selected, !open);
        return;
      }
    }
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight) / rowHeight) - 2);
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
    move(next);
  };

  const headerGroup = table.getHeaderGroups()[0];
  return (
    <div
      ref={scrollRef}
      className="vtable"
      onScroll={(e) => {
        const el = e.currentTarget;
        followTail.current = el.scrollHeight - el.scrollTop - el.clientHeight < rowHeight / 2;
      }}
    >
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is grid or treegrid, both support aria-activedescendant. */}
      <table
        className="vtable__table"
        role={props.onExpand ? "treegrid" : "grid"}
        aria-label={props.label}
        aria-rowcount={count + 1}
        aria-activedescendant={selectedKey !== undefined ? `vrow-${selectedKey}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <thead className="vtable__head">
          <tr className="vtable__headrow" aria-rowindex={1}>
            {headerGroup?.headers.map((h) => (
              <th key={h.id} className="vtable__cell" scope="col" style={{ width: columnWidth(h.getSize()) }}>
                <table.FlexRender header={h} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="vtable__body" style={{ height: virtualizer.getTotalSize() - rowHeight }}>
          {items.map((item, i) => {
            const row = tableRows[i];
            if (!row) return null;
            const key = row.id;
            const expanded = props.isExpanded?.(row.original);
            return (
              <tr
                key={key}
                id={`vrow-${key}`}
                className="vtable__row"
                aria-rowindex={item.index + 2}
                aria-selected={key === selectedKey}
                aria-expanded={expanded}
                aria-level={props.depthOf ? props.depthOf(row.original) + 1 : undefined}
                style={{ height: rowHeight, transform: `translateY(${item.start - rowHeight}px)` }}
                onClick={() => onSelect(row.original)}
                onContextMenu={
                  props.onRowMenu
                    ? (e) => {
                        e.preventDefault();
                        onSelect(row.original);
                        props.onRowMenu?.(row.original, { x: e.clientX, y: e.clientY });
                      }
                    : undefined
                }
              >
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className="vtable__cell"
                    style={{ width: columnWidth(cell.column.getSize()) }}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {count === 0 ? props.empty : null}
    </div>
  );
}
