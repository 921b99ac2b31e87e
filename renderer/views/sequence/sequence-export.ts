/**
 * The sequence diagram as a standalone SVG document: the same scene the view draws, with colours
 * and fonts written inline as presentation attributes, so the file renders anywhere (a browser, an
 * image viewer, a slide deck) without the app's stylesheet. Wire text is XML-escaped. Pure.
 */

import { HEADER_HEIGHT, laneHeader } from "./lanes.js";
import { DARK_PALETTE, type Palette } from "./palette.js";
import type { SequenceLayout } from "./sequence-layout.js";
import { buildScene } from "./sequence-scene.js";
import type { Paint, Shape } from "./shape.js";

const UI_FONT = "system-ui, 'Segoe UI', Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif";
const MONO_FONT = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/** True for a UTF-16 unit XML 1.0 cannot carry: C0 controls but tab/LF/CR, U+FFFE, U+FFFF (surrogates are checked in pairs). */
function forbiddenInXml(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff;
}

/** Replaces characters XML cannot carry (controls, lone surrogates) with U+FFFD. */
function xmlChars(text: string): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let bad = forbiddenInXml(c);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      bad = true;
    } else if (c >= 0xdc00 && c <= 0xdfff) bad = true;
    if (bad) {
      out += `${text.slice(start, i)}\ufffd`;
      start = i + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}

/** Escapes text for XML content and double-quoted attributes; characters XML forbids become U+FFFD. */
export function escapeXml(text: string): string {
  return xmlChars(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function color(p: Paint, palette: Palette): string {
  return p === "none" ? "none" : palette[p];
}

function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

function shapeXml(s: Shape, palette: Palette, dy: number): string {
  switch (s.kind) {
    case "line": {
      const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : "";
      return `<line x1="${n(s.x1)}" y1="${n(s.y1 + dy)}" x2="${n(s.x2)}" y2="${n(s.y2 + dy)}" stroke="${color(s.stroke, palette)}" stroke-width="${s.width}"${dash}/>`;
    }
    case "path":
      return `<path d="${escapeXml(shiftPath(s.d, dy))}" stroke="${color(s.stroke, palette)}" fill="${color(s.fill, palette)}" stroke-width="${s.width}" stroke-linejoin="round"/>`;
    case "rect":
      return `<rect x="${n(s.x)}" y="${n(s.y + dy)}" width="${n(s.w)}" height="${n(s.h)}" fill="${color(s.fill, palette)}"/>`;
    case "circle":
      return `<circle cx="${n(s.cx)}" cy="${n(s.cy + dy)}" r="${s.r}" fill="${color(s.fill, palette)}" stroke="${color(s.stroke, palette)}" stroke-width="2"/>`;
    case "text": {
      const halo = s.halo
        ? ` stroke="${palette.bg}" stroke-width="4" stroke-linejoin="round" paint-order="stroke"`
        : "";
      const font = s.mono ? MONO_FONT : UI_FONT;
      const weight = s.bold ? ` font-weight="700"` : "";
      return `<text x="${n(s.x)}" y="${n(s.y + dy)}" fill="${color(s.fill, palette)}" font-family="${font}" font-size="${s.size}" text-anchor="${s.anchor}"${weight}${halo} xml:space="preserve">${escapeXml(s.text)}</text>`;
    }
  }
}

/** Moves every y of a path made of `M x y`/`L x y`/`Z` commands by `dy`. */
function shiftPath(d: string, dy: number): string {
  return d.replace(
    /([ML])(-?[\d.]+) (-?[\d.]+)/g,
    (_, c: string, x: string, y: string) => `${c}${x} ${n(Number(y) + dy)}`,
  );
}

/** What to export: the rows `from`..`to` (inclusive) of a layout, `width` px wide. */
export interface SvgExportOptions {
  readonly width: number;
  readonly from: number;
  readonly to: number;
  readonly palette?: Palette;
  /** The document title (e.g. the trace's name). */
  readonly title?: string;
  readonly selectedSeq?: number | null;
}

/** A standalone SVG document of the chosen rows, lane titles on top; returns its text and size. */
export function sequenceSvg(
  layout: SequenceLayout,
  options: SvgExportOptions,
): { readonly svg: string; readonly width: number; readonly height: number } {
  const palette = options.palette ?? DARK_PALETTE;
  const scene = buildScene(layout, options);
  const width = scene.width;
  const height = HEADER_HEIGHT + (scene.bottom - scene.top);
  const dy = HEADER_HEIGHT - scene.top;
  const out: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(options.title ?? "ACP sequence")}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="${palette.bg}"/>`,
    ...scene.lanes.map((s) => shapeXml(s, palette, dy)),
    ...laneHeader(width).map((s) => shapeXml(s, palette, 0)),
  ];
  for (const item of scene.items) {
    out.push(`<g aria-label="${escapeXml(item.ariaLabel)}">`);
    for (const s of item.shapes) {
      if (s.kind === "rect" && s.hit) {
        if (item.selected) out.push(shapeXml({ ...s, fill: "selected" }, palette, dy));
        continue;
      }
      out.push(shapeXml(s, palette, dy));
    }
    out.push("</g>");
  }
  out.push("</svg>");
  return { svg: `${out.join("\n")}\n`, width, height };
}

/** The most rows an SVG export holds; longer diagrams export this many rows from the top of the screen. */
export const SVG_EXPORT_MAX_ROWS = 3000;

/** The rows an SVG export covers: all of them when they fit, else `max` rows starting at `firstVisible`. */
export function svgExportRange(
  rowCount: number,
  firstVisible: number,
  max = SVG_EXPORT_MAX_ROWS,
): { readonly from: number; readonly to: number } {
  if (rowCount <= max) return { from: 0, to: rowCount - 1 };
  const from = Math.max(0, Math.min(firstVisible, rowCount - max));
  return { from, to: from + max - 1 };
}
