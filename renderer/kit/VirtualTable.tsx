/**
 * A generic virtualized table: @tanstack/virtual-core decides which rows are on screen
 * (`row-virtualizer.ts`: one render per change of the rows to render) and @tanstack/react-table
 * (v9) owns the columns and renders the cells of just those rows, so a 100k-row list costs a
 * screenful of row objects per render. Rows are keyed by `getKey`; the
 * view follows new rows only while scrolled to the bottom. Arrow keys, Page Up/Down, Home and End
 * move the selection, Right/Left (or Enter) expand and collapse (ARIA treegrid pattern).
 *
 * Columns are resizable (drag the handle at a header's right edge, or focus it and press Left/Right;
 * double-click or Enter resets), hideable and sortable (a header button) through react-table's
 * sizing, resizing, visibility and sorting features, with the state owned by the caller (`prefs`,
 * remembered per table). Sorting is manual: react-table only sees the visible rows, so the caller
 * orders the whole list by `prefs.sorting`. A cell whose text is cut gets a tooltip with its full
 * text (`cellText`, else the cell's text) when the pointer reaches it. Leading columns named in
 * `pinned` stay at the left edge when the table scrolls sideways (CSS sticky).
 */
import {
  type ColumnDef,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  FlexRender,
  functionalUpdate,
  type Row,
  type RowData,
  rowSortingFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type ReactNode,
  useCallback,
  useLayoutEffect,
  useRef,
} from "react";
import { clampWidth, NO_PREFS, type TablePrefs } from "../model/store/table-prefs.js";
import { useRowVirtualizer } from "./row-virtualizer.js";

/** The table features every VirtualTable registers. */
export const virtualTableFeatures = tableFeatures({
  columnSizingFeature,
  columnResizingFeature,
  columnVisibilityFeature,
  rowSortingFeature,
});

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
}

/** A column's name for labels: its header text, or its id. */
export function columnName(header: unknown, id: string): string {
  return typeof header === "string" ? header : id;
}

/** Rows rendered beyond each edge of the screen, so a scroll shows rows at once. */
const OVERSCAN = 10;
/**
 * The same while following new rows at the bottom: none. At thousands of frames a second every
 * live step mounts a screenful of new rows, and rows mounted above the view only cost style and
 * layout; a scroll away from the tail renders with `OVERSCAN` before it paints.
 */
const FOLLOW_OVERSCAN = 0;

/** How far Left/Right moves a focused resize handle, px (Shift: five times that). */
const RESIZE_STEP = 10;

/** Column sizes are px at the normal 15px text size; as `em` they grow with the large-text option. */
const columnWidth = (size: number) => `${size / 15}em`;

/** A cell's width, and its left offset when pinned. */
const cellStyle = (size: number, left: number | undefined) =>
  left === undefined ? { width: columnWidth(size) } : { width: columnWidth(size), left: columnWidth(left) };

const pinCache = new Map<string, ReadonlyMap<string, number> | undefined>();

/**
 * The left offsets of the pinned columns among the shown ones (`layout`: `id:size …`): the leading
 * run of columns named in `pinned`, each at the sum of the widths before it; one object per layout.
 */
export function pinOffsets(
  layout: string,
  pinned: readonly string[] | undefined,
): ReadonlyMap<string, number> | undefined {
  if (!pinned || pinned.length === 0) return undefined;
  const key = `${pinned.join(",")}|${layout}`;
  if (pinCache.has(key)) return pinCache.get(key);
  const out = new Map<string, number>();
  let left = 0;
  for (const part of layout.split(" ")) {
    const at = part.lastIndexOf(":");
    const id = part.slice(0, at);
    if (!pinned.includes(id)) break;
    out.set(id, left);
    left += Number(part.slice(at + 1));
  }
  const pins = out.size > 0 ? out : undefined;
  if (pinCache.size > 50) pinCache.clear();
  pinCache.set(key, pins);
  return pins;
}

/** Renders the grid. */
export function VirtualTable<T extends RowData>(props: VirtualTableProps<T>) {
  const { rows, columns, selectedKey, onSelect, rowHeight, getKey } = props;
  const count = Math.min(props.count ?? rows.length, rows.length);
  const scrollRef = useRef<HTMLDivElement>(null);
  const followTail = useRef(true);
  // Row heights: `rowHeightOf` once per row object (a changed row is a new object), so a publish
  // that adds rows does not work out every row's height again; a new `rowHeightOf` (a column
  // width or the text size changed) starts a new cache and re-measures the rows (below).
  const rowHeightOf = props.rowHeightOf;
  const heights = useRef<{ of: VirtualTableProps<T>["rowHeightOf"]; cache: WeakMap<object, number> }>({
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
    let index = -1;
    for (let i = 0; i < count; i++) {
      if (getKey(rows[i] as T) === selectedKey) {
        index = i;
        break;
      }
    }
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
    let index = -1;
    for (let i = 0; i < count; i++) {
      if (getKey(rows[i] as T) === key) {
        index = i;
        break;
      }
    }
    if (index === -1 || !props.depthOf) return;
    const depth = props.depthOf(rows[index] as T);
    let last = index;
    while (last + 1 < count && props.depthOf(rows[last + 1] as T) > depth) last++;
    if (last === index) return;
    reveal.current = undefined;
    followTail.current = false;
    const el = scrollRef.current;
    const first = virtualizer.measurementsCache[index];
    const end = virtualizer.measurementsCache[last];
    if (!el || !first || !end) return;
    const top = Math.max(el.scrollTop, Math.min(first.start - rowHeight, end.end - el.clientHeight));
    if (top !== el.scrollTop) el.scrollTop = top;
  }, [rows, count, getKey, rowHeight, virtualizer, props.depthOf]);

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
        if (e.key === "ArrowRight") reveal.current = getKey(selected);
        props.onExpand(selected, e.key === "ArrowRight");
        return;
      }
      if (e.key === "Enter" && open !== undefined) {
        e.preventDefault();
        if (!open) reveal.current = getKey(selected);
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
  // The shown columns and their widths: a change renders every row again.
  const layout = headerGroup?.headers.map((h) => `${h.column.id}:${h.getSize()}`).join(" ") ?? "";
  const pins = pinOffsets(layout, props.pinned);
  return (
    <div ref={scrollRef} className="vtable">
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
        {/* Keys in the header (its sort buttons and resize handles) are theirs, not the rows' navigation. */}
        <thead className="vtable__head" onKeyDown={(e) => e.stopPropagation()}>
          <tr className={pins ? "vtable__headrow vtable__row--pinned" : "vtable__headrow"} aria-rowindex={1}>
            {headerGroup?.headers.map((h) => {
              const column = h.column;
              const name = columnName(column.columnDef.header, column.id);
              const sorted = column.getIsSorted();
              const canSort = column.getCanSort();
              const resize = (to: number) =>
                table.setColumnSizing((old) => ({
                  ...old,
                  [column.id]: clampWidth(to, column.columnDef.minSize, column.columnDef.maxSize),
                }));
              return (
                <th
                  key={h.id}
                  className={`vtable__cell vtable__th${column.getIsResizing() ? " vtable__th--resizing" : ""}${pins?.has(column.id) ? " vtable__cell--pinned" : ""}`}
                  scope="col"
                  aria-label={name}
                  aria-sort={
                    canSort
                      ? sorted === "asc"
                        ? "ascending"
                        : sorted === "desc"
                          ? "descending"
                          : "none"
                      : undefined
                  }
                  style={cellStyle(h.getSize(), pins?.get(column.id))}
                >
                  {canSort ? (
                    <button
                      type="button"
                      className="vtable__sort"
                      onClick={column.getToggleSortingHandler()}
                      title={`Sort by ${name}${sorted === "asc" ? " (now ascending; click for descending)" : sorted === "desc" ? " (now descending; click for the natural order)" : ""}`}
                    >
                      <table.FlexRender header={h} />
                      <span className="vtable__sort-mark" aria-hidden="true">
                        {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}
                      </span>
                    </button>
                  ) : (
                    <table.FlexRender header={h} />
                  )}
                  {props.headerNotes?.[column.id]}
                  {column.getCanResize() ? (
                    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the ARIA pattern for a splitter; <hr> cannot take focus or keys.
                    <span
                      role="separator"
                      aria-orientation="vertical"
                      aria-label={`Resize ${name} column`}
                      aria-valuenow={Math.round(h.getSize())}
                      aria-valuemin={column.columnDef.minSize ?? 20}
                      aria-valuemax={Math.min(column.columnDef.maxSize ?? 2000, 2000)}
                      tabIndex={0}
                      className="vtable__resize"
                      onMouseDown={h.getResizeHandler()}
                      onTouchStart={h.getResizeHandler()}
                      onClick={(e) => e.stopPropagation()}
                      onDoubleClick={() => column.resetSize()}
                      onKeyDown={(e) => {
                        const step = e.shiftKey ? RESIZE_STEP * 5 : RESIZE_STEP;
                        if (e.key === "ArrowLeft") resize(h.getSize() - step);
                        else if (e.key === "ArrowRight") resize(h.getSize() + step);
                        else if (e.key === "Enter") column.resetSize();
                        else return;
                        e.preventDefault();
                      }}
                    />
                  ) : null}
                </th>
              );
            })}
          </tr>
        </thead>
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

/** What a body row can do, through the table's latest props. */
interface RowActions<T> {
  select(row: T): void;
  menu(row: T, at: { readonly x: number; readonly y: number }): void;
  hasMenu(): boolean;
  cellText(columnId: string, row: T): string | undefined;
}

/** Props of one body row. */
interface BodyRowProps<T extends RowData> {
  /** react-table's row (a new object each render: compared by `original`). */
  readonly row: Row<typeof virtualTableFeatures, T>;
  readonly original: T;
  readonly index: number;
  /** Offset from the body's top, px. */
  readonly start: number;
  readonly size: number;
  readonly tall: boolean;
  /** `rowClassOf`'s class for the row. */
  readonly extraClass: string | undefined;
  readonly selected: boolean;
  readonly expanded: boolean | undefined;
  readonly level: number | undefined;
  /** The shown columns and their widths (`id:size …`). */
  readonly layout: string;
  /** Left offsets (px) of the pinned columns by id (`pinOffsets`), or undefined. */
  readonly pins: ReadonlyMap<string, number> | undefined;
  readonly columns: unknown;
  readonly actions: RowActions<T>;
}

/** The tooltip of a cut cell: set when the pointer enters it, removed when its text fits. */
function tooltip<T>(e: MouseEvent<HTMLElement>, columnId: string, row: T, actions: RowActions<T>): void {
  const el = e.currentTarget;
  const inner = el.firstElementChild;
  const cut = (b: Element) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1;
  if (cut(el) || (inner !== null && cut(inner)))
    el.title = actions.cellText(columnId, row) || (el.textContent ?? "");
  else el.removeAttribute("title");
}

function BodyRowView<T extends RowData>(p: BodyRowProps<T>) {
  const { row, original, actions } = p;
  const key = row.id;
  return (
    <tr
      id={`vrow-${key}`}
      className={`vtable__row${p.tall ? " vtable__row--tall" : ""}${p.pins ? " vtable__row--pinned" : ""}${p.extraClass ? ` ${p.extraClass}` : ""}`}
      aria-rowindex={p.index + 2}
      aria-selected={p.selected}
      aria-expanded={p.expanded}
      aria-level={p.level}
      style={{ height: p.size, transform: `translateY(${p.start}px)` }}
      onClick={() => actions.select(original)}
      onContextMenu={(e) => {
        if (!actions.hasMenu()) return;
        e.preventDefault();
        actions.select(original);
        actions.menu(original, { x: e.clientX, y: e.clientY });
      }}
    >
      {row.getVisibleCells().map((cell) => (
        <td
          key={cell.id}
          className={p.pins?.has(cell.column.id) ? "vtable__cell vtable__cell--pinned" : "vtable__cell"}
          style={cellStyle(cell.column.getSize(), p.pins?.get(cell.column.id))}
          onMouseEnter={(e) => tooltip(e, cell.column.id, original, actions)}
        >
          <FlexRender cell={cell} />
        </td>
      ))}
    </tr>
  );
}

/**
 * A body row, rendered again only when its row object, place, state or the columns changed: a
 * live publish or a scroll renders the rows that are new on screen, not every row shown (cells
 * that read a context, such as the Timeline's row facts, still follow it).
 */
const BodyRow = memo(
  BodyRowView,
  (a, b) =>
    a.original === b.original &&
    a.index === b.index &&
    a.start === b.start &&
    a.size === b.size &&
    a.tall === b.tall &&
    a.extraClass === b.extraClass &&
    a.selected === b.selected &&
    a.expanded === b.expanded &&
    a.level === b.level &&
    a.layout === b.layout &&
    a.pins === b.pins &&
    a.columns === b.columns &&
    a.actions === b.actions,
) as typeof BodyRowView;
