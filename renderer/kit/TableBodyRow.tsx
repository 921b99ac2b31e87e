/**
 * One body row of a VirtualTable, memoised: rendered again only when its row object, place, state
 * or the columns changed. A cell whose text is cut gets a tooltip with its full text when the
 * pointer reaches it.
 */
import { FlexRender, type Row, type RowData } from "@tanstack/react-table";
import { type MouseEvent, memo } from "react";
import { cellStyle } from "./column-width.js";
import type { virtualTableFeatures } from "./virtual-columns.js";

/** What a body row can do, through the table's latest props. */
export interface RowActions<T> {
  select(row: T): void;
  menu(row: T, at: { readonly x: number; readonly y: number }): void;
  hasMenu(): boolean;
  cellText(columnId: string, row: T): string | undefined;
}

/** Props of one body row. */
export interface BodyRowProps<T extends RowData> {
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
export const BodyRow = memo(
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
