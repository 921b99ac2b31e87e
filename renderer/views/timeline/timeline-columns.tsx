/**
 * The columns of the timeline table: ids, headers and widths, which are hidden by default and which
 * are pinned. One column set serves every row kind: a submission row shows its result and verdict
 * (first, so they stay on screen), prompt, key, ids, connections, pids, latency and waterfall bar
 * (session, attempt count and start time are hidden until chosen); an attempt row its outcome
 * words, connection, id, pid, send time and bar; a request row its method and retry class; an event
 * row what happened to a connection, an Agent or a fault, in its first column. The cells are
 * `timeline-cells.tsx`, their full text `cell-text.ts`, their sort `column-sort.ts`, their widths
 * `column-widths.ts`.
 */

import type { ReactNode } from "react";
import { type VirtualColumn, virtualColumnHelper } from "../../kit/virtual-columns.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { RowMenuButton } from "../faults/RowFaultMenu.js";
import { hasFaultMenu } from "../faults/row-faults.js";
import { cellText } from "./cell-text.js";
import { SORTABLE_COLUMNS } from "./column-sort.js";
import { COLUMN_WIDTHS, headerMinWidth, type TimelineColumnId } from "./column-widths.js";
import { NO_FACTS } from "./row-facts.js";
import { detailCell, keyCell, Latency, Pid, resultCell, Time, verdictCell, what } from "./timeline-cells.js";
import { Waterfall, WaterfallTrack } from "./WaterfallCell.js";

const col = virtualColumnHelper<TimelineRow>();

/**
 * A column by id and header, its cell drawn from the row, its width and least width from
 * `COLUMN_WIDTHS`; neither is less than the header's widest word needs.
 */
function column(id: Exclude<TimelineColumnId, "menu">, header: string, cell: (r: TimelineRow) => ReactNode) {
  const { size, min } = COLUMN_WIDTHS[id];
  const least = Math.max(min, headerMinWidth(header));
  return col.display({
    id,
    header,
    size: Math.max(size, least),
    minSize: least,
    cell: (c) => cell(c.row.original),
  });
}

/** Second lines under the Timeline's headers, by column id. */
export const TIMELINE_HEADER_NOTES: Readonly<Record<string, ReactNode>> = { waterfall: <WaterfallTrack /> };

/**
 * The timeline's columns (module scope, as react-table requires stable columns). The sortable ones
 * get an accessor only so react-table offers to sort them: the Timeline orders its whole row list
 * itself (`sortValue`), react-table never sees more than the visible rows.
 */
export const TIMELINE_COLUMNS: VirtualColumn<TimelineRow>[] = col
  .columns([
    col.display({
      id: "menu",
      header: () => <span className="visually-hidden">Faults</span>,
      size: COLUMN_WIDTHS.menu.size,
      minSize: COLUMN_WIDTHS.menu.min,
      enableResizing: false,
      enableHiding: false,
      cell: (c) => (hasFaultMenu(c.row.original) ? <RowMenuButton row={c.row.original} /> : null),
    }),
    column("what", "Method / row", what),
    column("result", "Result", resultCell),
    column("verdict", "Verdict / retry class", verdictCell),
    column("detail", "Prompt / detail", detailCell),
    column("key", "Key", keyCell),
    column("session", "Session", (r) => cellText("session", r, NO_FACTS)),
    column("attempts", "Attempts", (r) => cellText("attempts", r, NO_FACTS)),
    column("ids", "Ids", (r) => cellText("ids", r, NO_FACTS)),
    column("conns", "Conn", (r) => cellText("conns", r, NO_FACTS)),
    column("pid", "Agent pid", (r) => <Pid r={r} />),
    column("time", "Time", (r) => <Time r={r} />),
    column("latency", "Latency", (r) => <Latency r={r} />),
    column("waterfall", "Waterfall", (r) => <Waterfall r={r} />),
  ])
  .map((c) =>
    c.id !== undefined && SORTABLE_COLUMNS.has(c.id) ? { ...c, accessorFn: (r: TimelineRow) => r.seq } : c,
  );

/** Which columns are hidden until the user shows them (the column menu). */
export const TIMELINE_HIDDEN_BY_DEFAULT: readonly string[] = [
  "time",
  "session",
  "attempts",
  // a submission's key, attempt count and connections are in its row's group line (GroupLine)
  "key",
  "ids",
  "conns",
];

/** The columns that stay at the left edge when the Timeline scrolls sideways: the fault menu and Method. */
export const TIMELINE_PINNED: readonly string[] = ["menu", "what"];

/** Below this window width, presenter mode starts without the Latency and Waterfall columns. */
export const PRESENT_NARROW_PX = 1440;

/**
 * The columns hidden until the user shows them, for a mode and a window width: in presenter mode
 * on a window narrower than 1440 px (a 1280 px projector) Latency and Waterfall too, so the story's
 * columns (Result, Verdict, Prompt, Key, Ids, Conn, Agent pid) fill the width with none off screen;
 * an attempt's Prompt / detail cell still says its latency ("sent 10:42:03, 2503 ms"). The column
 * menu shows them unticked, and a tick brings them back (remembered).
 */
export function timelineHiddenByDefault(present: boolean, windowWidth: number): readonly string[] {
  return present && windowWidth < PRESENT_NARROW_PX
    ? [...TIMELINE_HIDDEN_BY_DEFAULT, "latency", "waterfall"]
    : TIMELINE_HIDDEN_BY_DEFAULT;
}
