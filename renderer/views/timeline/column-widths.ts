/**
 * The Timeline's column widths and the room a cell's chrome takes, in px at normal text: the one
 * source of them. The column table (`timeline-columns.tsx`) takes its default widths from here, the
 * line counts (`column-fit.ts`) reckon with them, and the CSS reads the Method cell's indent and
 * expander room from custom properties set from here (`TIMELINE_CSS_VARS`), so no CSS file holds a
 * Timeline column's width (checked by `column-css.test.ts`).
 */

import { COLUMN_BASE_PX } from "../../kit/column-width.js";
import { type Measure, textWidth, widestText, widestWord } from "../../kit/theme/text-width.js";

/** The text size of the table, px at normal text (column widths are em of it). */
export const BASE_PX = COLUMN_BASE_PX;
/** A cell's padding, left and right (layout.css `.vtable__cell`: 0.5em each side). */
export const CELL_PAD = BASE_PX;
/** A header's room besides its words: the padding, the sort mark and its gap (timeline.css). */
const HEADER_CHROME = CELL_PAD + 14;

/** The Method cell's indent per level of depth, em (an attempt under its submission, a frame under its attempt). */
export const METHOD_INDENT_EM = 1.2;
/** The Method cell's room for the ▸/▾ expander before its words, em. */
export const EXPANDER_ROOM_EM = 1.3;

/**
 * The CSS custom properties the Timeline's cells are laid out with (set on the table's element):
 * timeline.css indents and places the Method cell's words by them, never by its own numbers.
 */
export const TIMELINE_CSS_VARS: Readonly<Record<string, string>> = {
  "--tl-indent-step": `${METHOD_INDENT_EM}em`,
  "--tl-expander-room": `${EXPANDER_ROOM_EM}em`,
};

/**
 * The least width of a header: its widest word whole (a header wraps to two lines at its spaces,
 * timeline.css), so no header is cut at any width the column can take.
 */
export function headerMinWidth(header: string, measure?: Measure): number {
  return widestWord(header, { px: BASE_PX, weight: 650 }, measure) + HEADER_CHROME;
}

/** The Method cell's room besides its words at a depth: padding, the indent, the expander and its gap. */
export const whatChrome = (depth: number): number =>
  CELL_PAD + depth * METHOD_INDENT_EM * BASE_PX + EXPANDER_ROOM_EM * BASE_PX;

/**
 * The methods of every session's life (start, restore, prompt, cancel, close): the Method column's
 * default width holds the widest of them whole on one line. A longer name (the method catalogue has
 * names up to "session/request_permission") takes a second line (`whatLines`), never an ellipsis.
 */
export const LIFECYCLE_METHODS: readonly string[] = [
  "initialize",
  "authenticate",
  "session/new",
  "session/load",
  "session/resume",
  "session/prompt",
  "session/cancel",
  "session/close",
];

/** The Method column's width (px at normal text): the widest lifecycle method, whole, at the top level. */
export const METHOD_WIDTH = widestText(LIFECYCLE_METHODS, { px: BASE_PX }) + whatChrome(0) + 1;

/**
 * The Result column's width (px at normal text): room for an attempt's longest words on two lines;
 * with Method (`METHOD_WIDTH`), Verdict (`VERDICT_WIDTH`) and Prompt (135, "Deploy the site"
 * whole) it fits beside the side column at 1280 px.
 */
export const RESULT_WIDTH = 425;

/** A badge's text style (layout.css `.badge`). */
const BADGE_TEXT = { px: 0.9 * BASE_PX, weight: 600 } as const;

/** A badge's width for its words: the words, icon, gap, padding and border (layout.css `.badge`). */
export const badgeWidth = (words: string, measure?: Measure): number =>
  textWidth(words, BADGE_TEXT, measure) +
  textWidth("✓", BADGE_TEXT, measure) +
  Math.ceil(1.3 * BADGE_TEXT.px) +
  2;

/**
 * The verdicts of the demo's four stories (single, deduplicated, withdrawn, duplicate-insert): the
 * Verdict column's default width holds the widest of them whole on one line; a longer name wraps.
 */
const STORY_VERDICTS = ["single", "deduplicated", "withdrawn", "duplicate-insert"] as const;

/** The Verdict column's width (px at normal text): the story verdicts' widest badge, whole. */
export const VERDICT_WIDTH = Math.max(...STORY_VERDICTS.map((v) => badgeWidth(v))) + CELL_PAD + 1;

/**
 * Every Timeline column's default width and least width, px at normal text, by column id: the
 * column table's only numbers (neither is less than the header's widest word needs, `column`).
 */
export const COLUMN_WIDTHS = {
  menu: { size: 36, min: 20 },
  what: { size: METHOD_WIDTH, min: 80 },
  result: { size: RESULT_WIDTH, min: 60 },
  verdict: { size: VERDICT_WIDTH, min: 50 },
  detail: { size: 135, min: 50 },
  key: { size: 100, min: 40 },
  session: { size: 90, min: 40 },
  attempts: { size: 70, min: 30 },
  ids: { size: 60, min: 30 },
  conns: { size: 55, min: 30 },
  pid: { size: 80, min: 30 },
  time: { size: 100, min: 50 },
  latency: { size: 90, min: 40 },
  waterfall: { size: 140, min: 40 },
} as const satisfies Readonly<Record<string, { readonly size: number; readonly min: number }>>;

/** A Timeline column's id. */
export type TimelineColumnId = keyof typeof COLUMN_WIDTHS;
