/** Browser side of the sequence export: the live theme's palette, SVG to PNG on a canvas, and downloads. */
import { type Palette, paletteFrom } from "./palette.js";

/** The palette of the theme currently applied to `doc`. */
export function documentPalette(doc: Document): Palette {
  const style = doc.defaultView?.getComputedStyle(doc.documentElement);
  return paletteFrom((name) => style?.getPropertyValue(name) ?? "");
}

/** Largest canvas side browsers reliably allocate. */
const MAX_CANVAS_SIDE = 16_384;

/** Draws an SVG document onto a canvas (`scale` px per SVG px, capped to what a canvas holds) and encodes a PNG. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const s = Math.min(scale, MAX_CANVAS_SIDE / width, MAX_CANVAS_SIDE / height);
  const img = new Image();
  // A data: URL, not a blob: URL: the renderer's CSP allows images from 'self' and data: only.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.floor(width * s));
  canvas.height = Math.max(1, Math.floor(height * s));
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("this browser gives no 2D canvas");
  ctx.scale(s, s);
  ctx.drawImage(img, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error("the canvas could not encode a PNG"))),
      "image/png",
    ),
  );
}

/** Offers `blob` as a download named `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
