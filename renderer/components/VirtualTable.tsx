/**
 * A generic virtualized table: @tanstack/react-table (v9) owns the columns and row model,
 * @tanstack/react-virtual renders only the visible rows at a fixed height. Rows are keyed by their
 * `seq`; the view follows new rows only while scrolled to the bottom. Arrow keys, Page Up/Down,
 * Home and End move the selection (ARIA grid pattern).
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

/** The table features every VirtualTable registers (sizes; sorting and filters come with the timeline). */
export const virtualTableFeatures = tableFeatures({ columnSizingFeature });

/** A column of a VirtualTable over rows of type T. */
// biome-ignore lint/suspicious/noExplicitAny: react-table's column arrays are heterogeneous in their value type.
export type VirtualColumn<T extends RowData> = ColumnDef<typeof virtualTableFeatures, T, any>;

/** A column helper bound to VirtualTable's features. */
export function virtualColumnHelper<T extends RowData>() {
  return createColumnHelper<typeof virtualTableFeatures, T>();
}

/** Props of VirtualTable. */
export interface VirtualTableProps<T extends RowData & { readonly seq: number }> {
  /** Accessible name of the grid. */
  readonly label: string;
  readonly rows: readonly T[];
  /** Must be stable (module scope or memoised). */
  readonly columns: VirtualColumn<T>[];
  readonly selectedSeq: number | undefined;
  readonly onSelect: (seq: number) => void;
  /** Shown instead of the grid body while there are no rows. */
  readonly empty?: ReactNode;
  /** Row height in px; must match the CSS `--row-height` in use. */
  readonly rowHeight: number;
}

const getRowId = (row: { readonly seq: number }) => String(row.seq);

/** Column sizes are px at the normal 15px text size; as `em` they grow with the large-text option. */
const columnWidth = (size: number) => `${size / 15}em`;

/** Renders the grid. */
export function VirtualTable<T extends RowData & { readonly seq: number }>(props: VirtualTableProps<T>) {
  const { rows: data, columns, selectedSeq, onSelect, rowHeight } = props;
  const table = useTable({ features: virtualTableFeatures, columns, data, getRowId });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const followTail = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (i) => rows[i]?.id ?? i,
    overscan: 10,
    paddingStart: rowHeight,
  });

  useLayoutEffect(() => {
    if (followTail.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  }, [rows.length, virtualizer]);

  const selectedIndex =
    selectedSeq === undefined ? -1 : rows.findIndex((r) => r.original.seq === selectedSeq);

  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[clamped];
    if (!row) return;
    onSelect(row.original.seq);
    virtualizer.scrollToIndex(clamped, { align: "auto" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight) / rowHeight) - 2);
    const from = selectedIndex === -1 ? (e.key === "ArrowUp" ? rows.length : -1) : selectedIndex;
    const target: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: rows.length - 1,
    };
    const next = target[e.key];
    if (next === undefined || rows.length === 0) return;
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
      <table
        className="vtable__table"
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the APG data grid pattern is a table with role=grid; keys move the selection.
        role="grid"
        aria-label={props.label}
        aria-rowcount={rows.length + 1}
        aria-activedescendant={selectedIndex >= 0 ? `vrow-${selectedSeq}` : undefined}
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
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const seq = row.original.seq;
            return (
              <tr
                key={row.id}
                id={`vrow-${seq}`}
                className="vtable__row"
                aria-rowindex={item.index + 2}
                aria-selected={seq === selectedSeq}
                style={{ height: rowHeight, transform: `translateY(${item.start - rowHeight}px)` }}
                onClick={() => onSelect(seq)}
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
      {rows.length === 0 ? props.empty : null}
    </div>
  );
}
