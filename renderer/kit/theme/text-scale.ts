/** How much Large text enlarges the UI: the root size 20 px against 15 px (theme.css `--base-size`). */
export const LARGE_TEXT_SCALE = 20 / 15;

/** The scale factor for drawings sized in px (the Sequence SVG): 1, or the Large text factor. */
export function textScale(largeText: boolean): number {
  return largeText ? LARGE_TEXT_SCALE : 1;
}
