/**
 * How many lines a Timeline row's cells need at their column's width (1 or 2, or one per stacked
 * badge): a row is as tall as its tallest cell, so the words that carry a claim are on screen, not
 * cut. The Method cell's words break where these counts say (`whatWords`).
 */

import { type Measure, textWidth } from "../../kit/theme/text-width.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { BASE_PX, badgeWidth, CELL_PAD, VERDICT_WIDTH, whatChrome } from "./column-widths.js";
import { shownResult } from "./result-words.js";
import { resultText, verdictBadges, whatText } from "./row-words.js";

/** Average width of a character of the Result chips' bold text, in px at normal text (on the safe side). */
const CHAR_PX = 8.3;

/**
 * How many lines a row's Result takes in a column `width` px wide (1 or 2): a submission's always
 * two (its result words over its key group line, `GroupLine`); an attempt's two when its shown
 * words do not fit on one line. A row of two lines is taller, so the words that carry the claim
 * ("answer dropped by the inspector: the client never saw it") are on screen, not cut.
 */
export function resultLines(r: TimelineRow, width: number): 1 | 2 {
  if (r.kind === "submission") return 2;
  if (r.kind !== "attempt") return 1;
  const chip = 40; // cell padding, and the chip's icon, padding and border
  return shownResult(resultText(r)).length * CHAR_PX > width - chip ? 2 : 1;
}

/**
 * How many lines a row's Method cell takes in a column `width` px wide (1 or 2): two when its words
 * and indent do not fit on one line (they wrap, timeline.css). Event rows spill over the empty
 * cells beside them, on one line.
 */
export function whatLines(r: TimelineRow, width: number, measure?: Measure): 1 | 2 {
  if (r.kind === "event") return 1;
  return textWidth(whatText(r), { px: BASE_PX }, measure) + whatChrome(r.depth) > width ? 2 : 1;
}

/**
 * How many lines a row's Verdict cell takes in a column `width` px wide: one per badge (more than
 * one badge are stacked), and two for a badge too wide for the column (its name wraps at its
 * hyphens, "key-reused-" / "different-prompt", timeline.css), so no verdict is cut.
 */
export function verdictLines(r: TimelineRow, width: number = VERDICT_WIDTH, measure?: Measure): number {
  const badges = verdictBadges(r);
  if (badges.length === 0) return 1;
  return badges.reduce((n, b) => n + (badgeWidth(b, measure) + CELL_PAD > width ? 2 : 1), 0);
}
