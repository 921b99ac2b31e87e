/**
 * A VirtualTable's header row: per column a sort button (when sortable), a second line (`notes`)
 * and a resize handle (drag it, or focus it and press Left/Right; double-click or Enter resets).
 */
import type { ReactTable, RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { clampWidth } from "../model/store/table-prefs.js";
import { cellStyle } from "./column-width.js";
import { columnName, type virtualTableFeatures } from "./virtual-columns.js";

/** How far Left/Right moves a focused resize handle, px (Shift: five times that). */
const RESIZE_STEP = 10;

/** Props of TableHeader. */
export interface TableHeaderProps<T extends RowData> {
  readonly table: ReactTable<typeof virtualTableFeatures, T>;
  /** Left offsets (px) of the pinned columns by id (`pinOffsets`), or undefined. */
  readonly pins: ReadonlyMap<string, number> | undefined;
  /** A line under a column's header by column id. */
  readonly notes: Readonly<Record<string, ReactNode>> | undefined;
}

/** The header of a VirtualTable; keys pressed in it are its own, not the rows' navigation. */
export function TableHeader<T extends RowData>({ table, pins, notes }: TableHeaderProps<T>) {
  const headerGroup = table.getHeaderGroups()[0];
  return (
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
              {notes?.[column.id]}
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
  );
}
