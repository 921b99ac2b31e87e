/**
 * How a VirtualTable column's width (px at the normal text size) becomes a cell's CSS width: in `em`
 * of the table's text, so columns grow with the Large text option. Widths live in the column
 * definitions only; the CSS never repeats them.
 */

/** The text size column widths are given at, px (theme.css `--base-size` at normal text). */
export const COLUMN_BASE_PX = 15;

/** A column width in px at normal text as a CSS length that grows with the text size. */
export const columnWidth = (size: number): string => `${size / COLUMN_BASE_PX}em`;

/** A cell's inline style: its width, and its left offset when pinned. */
export const cellStyle = (size: number, left: number | undefined) =>
  left === undefined ? { width: columnWidth(size) } : { width: columnWidth(size), left: columnWidth(left) };
