/**
 * How wide a text is drawn in the UI's font, in px at the normal 15 px text (theme.css
 * `--base-size`; Large text scales it, as column widths are em). Measured with a canvas in the
 * UI's own font where there is one (the browser, Electron), else estimated on the wide side (a
 * test run without a canvas). Columns take their least widths from the widest of a closed set
 * of words (method names, verdict names, header words) with it, and rows their line counts.
 */

/** The UI font as theme.css names it (`--font-ui`). */
export const UI_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';

/** A text's style: its size in px at normal text and its weight. */
export interface TextStyle {
  readonly px: number;
  readonly weight?: number;
}

/** Measures a text in a CSS font (`600 13.5px …`), in px. */
export type Measure = (text: string, font: string) => number;

/** Per character, in em, when there is no canvas: wider than the UI font's widest lower-case average. */
const ESTIMATE_EM = { normal: 0.62, bold: 0.68 } as const;

/** The estimate used without a canvas: every character as wide as a wide one. */
export const estimateWidth: Measure = (text, font) => {
  const px = Number.parseFloat(/([\d.]+)px/.exec(font)?.[1] ?? "15");
  const bold = /^\s*([6-9]\d\d|bold)\b/.test(font);
  return [...text].length * px * (bold ? ESTIMATE_EM.bold : ESTIMATE_EM.normal);
};

let canvasMeasure: Measure | null | undefined;

function canvasOrNull(): Measure | null {
  if (canvasMeasure !== undefined) return canvasMeasure;
  canvasMeasure = null;
  try {
    const ctx = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
    if (ctx && typeof ctx.measureText === "function") {
      const cache = new Map<string, number>();
      canvasMeasure = (text, font) => {
        const key = `${font}\u0000${text}`;
        let w = cache.get(key);
        if (w === undefined) {
          ctx.font = font;
          w = ctx.measureText(text).width;
          cache.set(key, w);
        }
        return w;
      };
    }
  } catch {
    canvasMeasure = null;
  }
  return canvasMeasure;
}

/** The measure in use: the canvas's, else the estimate. */
export function defaultMeasure(): Measure {
  return canvasOrNull() ?? estimateWidth;
}

/** The CSS font of a style in the UI font. */
export function fontOf(style: TextStyle): string {
  return `${style.weight ?? 400} ${style.px}px ${UI_FONT}`;
}

/** The width of a text in a style, px (rounded up). */
export function textWidth(text: string, style: TextStyle, measure: Measure = defaultMeasure()): number {
  return Math.ceil(measure(text, fontOf(style)));
}

/** The widest of some texts in a style, px (0 for none). */
export function widestText(
  texts: Iterable<string>,
  style: TextStyle,
  measure: Measure = defaultMeasure(),
): number {
  let widest = 0;
  for (const t of texts) widest = Math.max(widest, textWidth(t, style, measure));
  return widest;
}

/** The widest word of a text (split at spaces), px: the least width a wrapping text can take. */
export function widestWord(text: string, style: TextStyle, measure: Measure = defaultMeasure()): number {
  return widestText(text.split(/\s+/).filter(Boolean), style, measure);
}
