/** Theme colours for the sequence diagram: which CSS variable each paint reads, and concrete palettes for export. */
import type { Paint } from "./shape.js";

/** A paint that has a colour. */
export type ColouredPaint = Exclude<Paint, "none">;

/** Concrete colours for every paint. */
export type Palette = Readonly<Record<ColouredPaint, string>>;

/** The theme variable (renderer/kit/theme/theme.css) behind each paint; sequence.css uses the same ones. */
export const PAINT_VARS: Readonly<Record<ColouredPaint, string>> = {
  fg: "--fg",
  muted: "--fg-muted",
  accent: "--accent",
  ok: "--ok-fg",
  warn: "--warn-fg",
  error: "--error-fg",
  info: "--info-fg",
  border: "--border",
  bg: "--bg",
  raised: "--bg-raised",
  selected: "--bg-selected",
};

/** The dark theme's colours, used when no live theme is at hand (tests, a missing variable). */
export const DARK_PALETTE: Palette = {
  fg: "#f0f3f6",
  muted: "#b7c0ca",
  accent: "#58a6ff",
  ok: "#7ee2a1",
  warn: "#ffd76a",
  error: "#ffb0b0",
  info: "#a5d2ff",
  border: "#3d444d",
  bg: "#0d1117",
  raised: "#161b22",
  selected: "#1f3a5f",
};

/** Resolves every paint through `readVar` (e.g. getComputedStyle(...).getPropertyValue), falling back to dark. */
export function paletteFrom(readVar: (name: string) => string): Palette {
  const out = { ...DARK_PALETTE };
  for (const [paint, name] of Object.entries(PAINT_VARS) as [ColouredPaint, string][]) {
    const v = readVar(name).trim();
    if (v) out[paint] = v;
  }
  return out;
}
