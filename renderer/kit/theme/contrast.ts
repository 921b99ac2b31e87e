/** WCAG contrast between two sRGB colours given as #rrggbb (the theme's tokens). */

/** The relative luminance of `#rrggbb` (WCAG 2.x). */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = Number.parseInt(h ?? "0", 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Each state's text token and the background tokens it is drawn on. */
export const STATE_PAIRS: readonly { readonly fg: string; readonly on: readonly string[] }[] = [
  { fg: "--state-ok-fg", on: ["--state-ok-bg", "--surface", "--surface-raised", "--surface-sunken"] },
  { fg: "--state-warn-fg", on: ["--state-warn-bg", "--surface", "--surface-raised", "--surface-sunken"] },
  { fg: "--state-error-fg", on: ["--state-error-bg", "--surface", "--surface-raised", "--surface-sunken"] },
  { fg: "--state-info-fg", on: ["--state-info-bg", "--surface", "--surface-raised", "--surface-sunken"] },
  { fg: "--state-neutral-fg", on: ["--state-neutral-bg", "--surface", "--surface-raised"] },
  {
    fg: "--text",
    on: ["--surface", "--surface-raised", "--surface-sunken", "--surface-selected", "--surface-hover"],
  },
  { fg: "--text-muted", on: ["--surface", "--surface-raised", "--surface-sunken", "--surface-selected"] },
  { fg: "--accent-fg", on: ["--surface", "--surface-raised"] },
  { fg: "--on-accent", on: ["--accent-strong"] },
];
