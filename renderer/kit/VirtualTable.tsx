/**
 * A generic virtualized table: @tanstack/virtual-core decides which rows are on screen
 * (`row-virtualizer.ts`: one render per change of the rows to render) and @tanstack/react-table
 * (v9) owns the columns and renders the cells of just those rows, so a 100k-row list costs a
 * screenful of row objects per render. Rows are keyed by `getKey`; the
 * view follows new rows only while scrolled to the bottom. Arrow keys, Page Up/Down, Home and End
 * move the selection, Right/Left (or Enter) expand and collapse (ARIA treegrid pattern).
 *
 * The parts: `virtual-columns.ts` (column type and helper), `TableHeader.tsx` (sorting and
 * resizing), `use-table-rows.ts` (virtualizing, following the tail, revealing), `TableBodyRow.tsx`
 * (a memoised row), `table-keys.ts` (the keyboard), `column-width.ts`, `pin-offsets.ts`.
 *
 * Columns are resizable (drag the handle at a header's right edge, or focus it and press Left/Right;
 * double-click or Enter resets), hideable and sortable (a header button) through react-table's
 * sizing, resizing, visibility and sorting features, with the state owned by the caller (`prefs`,
 * remembered per table). Sorting is manual: react-table only sees the visible rows, so the caller
 * orders the whole list by `prefs.sorting`. A cell whose text is cut gets a tooltip with its full
 * text (`cellText`, else the cell's text) when the pointer reaches it. Leading columns named in
 * `pinned` stay at the left edge when the table scrolls sideways (CSS sticky).
 */
import { functionalUpdate, type RowData, useTable } from "@tanstack/react-table";
import { type CSSProperties, type KeyboardEvent, type ReactNode, useRef } from "react";
import { NO_PREFS, type TablePrefs } from "../model/store/table-prefs.js";
import { pinOffsets } from "./pin-offsets.js";
import { BodyRow, type RowActions } from "./TableBodyRow.js";
import { TableHeader } from "./TableHeader.js";
import { onTableKey } from "./table-keys.js";
import { useTableRows } from "./use-table-rows.js";
import { type VirtualColumn, virtualTableFeatures } from "./virtual-columns.js";

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
  /** A row's own height in px when it differs from `rowHeight` (a two-line row); must be a pure function of the row. */
  readonly rowHeightOf?: (row: T) => number;
  /** Column widths, hidden columns and sort (the caller orders `rows` by the sort). */
  readonly prefs?: TablePrefs;
  readonly onPrefsChange?: (prefs: TablePrefs) => void;
  /** True when header buttons sort (the caller orders `rows` by `prefs.sorting`). */
  readonly sortable?: boolean;
  /** Columns hidden unless `prefs` shows them. */
  readonly hiddenByDefault?: readonly string[];
  /** A cell's full text, for the tooltip of a cut cell (default: the text it shows). */
  readonly cellText?: (columnId: string, row: T) => string;
  /** An extra class of a row's `<tr>` (a pure function of the row; must be stable). */
  readonly rowClassOf?: (row: T) => string | undefined;
  /** A line under a column's header by column id (e.g. the scale a column's bars are drawn on); must be stable. */
  readonly headerNotes?: Readonly<Record<string, ReactNode>>;
  /**
   * Ids of columns pinned at the left edge when the table scrolls sideways (a leading run of the
   * shown columns; one not in that run scrolls as usual); must be stable.
   */
  readonly pinned?: readonly string[];
  /** CSS custom properties set on the table's element (the caller's cell geometry, e.g. an indent step); must be stable. */
  readonly cssVars?: Readonly<Record<string, string>>;
}

/** Renders the grid. */
export function VirtualTable<T extends RowData>(props: VirtualTableProps<T>) {
  const { rows, columns, selectedKey, onSelect, rowHeight, getKey } = props;
  const count = Math.min(props.count ?? rows.length, rows.length);
  const { scrollRef, bodyRef, virtualizer, reveal } = useTableRows({
    rows,
    count,
    getKey,
    rowHeight,
    rowHeightOf: props.rowHeightOf,
    selectedKey,
    depthOf: props.depthOf,
  });
  const items = virtualizer.getVirtualItems();
  const visible = items.map((item) => rows[item.index] as T);
  const prefs = props.prefs ?? NO_PREFS;
  const latest = useRef(prefs);
  latest.current = prefs;
  const change = (patch: Partial<TablePrefs>) => props.onPrefsChange?.({ ...latest.current, ...patch });
  const visibility = {
    ...Object.fromEntries((props.hiddenByDefault ?? []).map((id) => [id, false])),
    ...prefs.visibility,
  };
  const table = useTable({
    features: virtualTableFeatures,
    columns,
    data: visible,
    getRowId: getKey,
    manualSorting: true,
    sortDescFirst: false,
    enableMultiSort: false,
    enableSorting: props.sortable === true && props.onPrefsChange !== undefined,
    enableColumnResizing: props.onPrefsChange !== undefined,
    columnResizeMode: "onChange",
    state: { columnSizing: { ...prefs.sizing }, columnVisibility: visibility, sorting: [...prefs.sorting] },
    onColumnSizingChange: (u) => change({ sizing: functionalUpdate(u, { ...latest.current.sizing }) }),
    onColumnVisibilityChange: (u) => change({ visibility: functionalUpdate(u, visibility) }),
    onSortingChange: (u) => change({ sorting: functionalUpdate(u, [...latest.current.sorting]) }),
  });
  const tableRows = table.getRowModel().rows;

  // What a row does on a click, a right-click or the pointer reaching a cell: the latest props,
  // read through a ref so the memoised rows (BodyRow) need not render again when a handler is new.
  const latestProps = useRef(props);
  latestProps.current = props;
  const actions = useRef<RowActions<T>>({
    select: (row) => {
      // A click on a row that opens and closes is a look at that row: what it opens is revealed
      // below it (`reveal`), not pushed off by following new rows at the bottom.
      if (latestProps.current.isExpanded?.(row) === false) reveal.current = latestProps.current.getKey(row);
      latestProps.current.onSelect(row);
    },
    menu: (row, at) => latestProps.current.onRowMenu?.(row, at),
    hasMenu: () => latestProps.current.onRowMenu !== undefined,
    cellText: (columnId, row) => latestProps.current.cellText?.(columnId, row),
  }).current;

  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(count - 1, index));
    const row = rows[clamped];
    if (row === undefined) return;
    onSelect(row);
    virtualizer.scrollToIndex(clamped, { align: "auto" });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) =>
    onTableKey(e, {
      rows,
      count,
      getKey,
      selectedKey,
      rowHeight,
      viewHeight: () => scrollRef.current?.clientHeight,
      onExpand: props.onExpand,
      isExpanded: props.isExpanded,
      onRowMenu: props.onRowMenu,
      move,
      willOpen: (key) => {
        reveal.current = key;
      },
    });

  const headerGroup = table.getHeaderGroups()[0];
  // The shown columns and their widths: a change renders every row again.
  const layout = headerGroup?.headers.map((h) => `${h.column.id}:${h.getSize()}`).join(" ") ?? "";
  const pins = pinOffsets(layout, props.pinned);
  return (
    <div ref={scrollRef} className="vtable" style={props.cssVars as CSSProperties | undefined}>
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
        <TableHeader table={table} pins={pins} notes={props.headerNotes} />
        <tbody
          ref={bodyRef}
          className="vtable__body"
          style={{ height: virtualizer.getTotalSize() - rowHeight }}
        >
          {items.map((item, i) => {
            const row = tableRows[i];
            if (!row) return null;
            return (
              <BodyRow
                key={row.id}
                row={row}
                original={row.original}
                index={item.index}
                start={item.start - rowHeight}
                size={item.size}
                tall={item.size > rowHeight}
                extraClass={props.rowClassOf?.(row.original)}
                selected={row.id === selectedKey}
                expanded={props.isExpanded?.(row.original)}
                level={props.depthOf ? props.depthOf(row.original) + 1 : undefined}
                layout={layout}
                pins={pins}
                columns={columns}
                actions={actions}
              />
            );
          })}
        </tbody>
      </table>
      {count === 0 ? props.empty : null}
    </div>
  );
}
