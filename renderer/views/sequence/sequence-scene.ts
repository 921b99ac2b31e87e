/**
 * Turns placed rows into drawing primitives (lines, paths, rects, circles, text) with theme paints,
 * so the live view (SceneShapes.tsx) and the standalone export (sequence-export.ts) draw exactly
 * the same picture. Pure: no React, no DOM.
 */
import { fitText, GUTTER, laneLines, laneX, MIN_WIDTH } from "./lanes.js";
import {
  type ArrowRow,
  formatDuration,
  type GapRow,
  type MarkerRow,
  type PlacedRow,
  type SequenceLayout,
} from "./sequence-layout.js";
import type { Paint, Shape } from "./shape.js";

/** One interactive arrow or one marker, with its shapes. */
export interface SceneItem {
  readonly key: string;
  /** The seq a click selects (null for gap rows). */
  readonly seq: number | null;
  readonly role: "button" | "separator";
  readonly ariaLabel: string;
  readonly selected: boolean;
  readonly shapes: readonly Shape[];
}

/** What to draw: lane lines plus items, in diagram coordinates (y of the layout). */
export interface Scene {
  readonly width: number;
  readonly top: number;
  readonly bottom: number;
  readonly lanes: readonly Shape[];
  readonly items: readonly SceneItem[];
}

/**
 * A background-coloured box behind a label, so lane and marker lines do not run through the gaps
 * between words (a text halo covers only the glyphs). Width is estimated at `em` per character.
 */
function backdrop(x: number, y: number, text: string, size: number, em: number): Shape {
  const w = text.length * size * em + 10;
  return { kind: "rect", x: x - w / 2, y: y - size * 0.9, w, h: size * 1.25, fill: "bg" };
}

function head(x: number, y: number, toRight: boolean, open: boolean, paint: Paint): Shape {
  const dx = toRight ? -11 : 11;
  const d = open
    ? `M${x + dx} ${y - 6} L${x} ${y} L${x + dx} ${y + 6}`
    : `M${x + dx} ${y - 6} L${x} ${y} L${x + dx} ${y + 6} Z`;
  return { kind: "path", d, stroke: paint, fill: open ? "none" : paint, width: 2 };
}

/** The seq and the time since the first record, in the left gutter; `y` is the seq's baseline. */
function gutter(seq: number, ts: number, startTs: number | null, y: number): Shape[] {
  const rel = startTs === null ? 0 : (ts - startTs) / 1000;
  return [
    { kind: "text", x: 8, y, text: `#${seq}`, fill: "muted", anchor: "start", size: 12, mono: true },
    {
      kind: "text",
      x: 8,
      y: y + 16,
      // No start (a trace imported without timestamps): the order is known, the time is not.
      text: startTs === null ? "time unknown" : `+${rel.toFixed(3)} s`,
      fill: "muted",
      anchor: "start",
      size: 11,
      mono: true,
    },
  ];
}

function arrowShapes(a: ArrowRow, row: PlacedRow, width: number, startTs: number | null): Shape[] {
  const x1 = laneX(a.from, width);
  const x2 = laneX(a.to, width);
  const xi = laneX("inspector", width);
  const toRight = x2 > x1;
  const ly = row.y + 31;
  const paint: Paint = a.tone;
  const shapes: Shape[] = [
    { kind: "rect", x: 0, y: row.y, w: Math.max(width, MIN_WIDTH), h: row.height, fill: "none", hit: true },
    ...gutter(a.seq, a.ts, startTs, row.y + 20),
  ];
  const dash = a.arrow === "response" ? "8 5" : a.arrow === "malformed" ? "2 4" : undefined;
  const lineWidth = a.count > 1 ? 5 : a.arrow === "notification" ? 1.5 : 2.5;
  const end = a.dropped ? x2 : toRight ? x2 - 2 : x2 + 2;
  shapes.push({ kind: "line", x1, y1: ly, x2: end, y2: ly, stroke: paint, width: lineWidth, dash });
  if (a.dropped) {
    shapes.push(
      { kind: "line", x1: x2 - 9, y1: ly - 9, x2: x2 + 9, y2: ly + 9, stroke: "error", width: 3.5 },
      { kind: "line", x1: x2 - 9, y1: ly + 9, x2: x2 + 9, y2: ly - 9, stroke: "error", width: 3.5 },
    );
  } else {
    shapes.push(head(x2, ly, toRight, a.arrow !== "request" && a.arrow !== "malformed", paint));
    shapes.push({ kind: "circle", cx: xi, cy: ly, r: 3.5, fill: "bg", stroke: paint });
  }
  const mid = (x1 + x2) / 2;
  const room = 2 * Math.min(mid - GUTTER, Math.max(width, MIN_WIDTH) - mid) - 8;
  const label = fitText(a.dropped ? `✕ ${a.label}` : a.label, room, 14);
  shapes.push(backdrop(mid, ly - 9, label, 14, 0.61), {
    kind: "text",
    x: mid,
    y: ly - 9,
    text: label,
    fill: a.dropped ? "error" : paint === "muted" ? "fg" : paint,
    anchor: "middle",
    size: 14,
    bold: a.arrow === "request",
    mono: true,
    halo: true,
  });
  if (a.detail) {
    const detail = fitText(a.detail, room, 12);
    shapes.push(backdrop(mid, ly + 17, detail, 12, 0.56), {
      kind: "text",
      x: mid,
      y: ly + 17,
      text: detail,
      fill: a.dropped ? "error" : "muted",
      anchor: "middle",
      size: 12,
      halo: true,
    });
  }
  return shapes;
}

const MARKER_DASH: Readonly<Record<MarkerRow["marker"], string | undefined>> = {
  "conn-open": undefined,
  "agent-spawn": undefined,
  "conn-close": "12 4 3 4",
  "agent-exit": "12 5",
  fault: "3 3",
  note: "1 5",
};

function markerShapes(m: MarkerRow, row: PlacedRow, width: number, startTs: number | null): Shape[] {
  const w = Math.max(width, MIN_WIDTH);
  const cy = row.y + row.height / 2;
  const breaks = m.marker === "conn-close" || m.marker === "agent-exit";
  const shapes: Shape[] = [...gutter(m.seq, m.ts, startTs, row.y + 15)];
  const line = {
    kind: "line" as const,
    x1: GUTTER,
    x2: w - 8,
    stroke: m.tone as Paint,
    dash: MARKER_DASH[m.marker],
  };
  if (breaks)
    shapes.push({ ...line, y1: cy - 3, y2: cy - 3, width: 2 }, { ...line, y1: cy + 3, y2: cy + 3, width: 2 });
  else shapes.push({ ...line, y1: cy, y2: cy, width: 2 });
  const label = fitText(m.label, w - GUTTER - 16, 14);
  shapes.push(backdrop(laneX("inspector", width), cy + 5, label, 14, 0.64), {
    kind: "text",
    x: laneX("inspector", width),
    y: cy + 5,
    text: label,
    fill: m.tone,
    anchor: "middle",
    size: 14,
    bold: true,
    halo: true,
  });
  return shapes;
}

function gapShapes(g: GapRow, row: PlacedRow, width: number): Shape[] {
  const cy = row.y + row.height / 2;
  const w = Math.max(width, MIN_WIDTH);
  return [
    { kind: "rect", x: GUTTER, y: row.y + 4, w: w - GUTTER - 8, h: row.height - 8, fill: "raised" },
    {
      kind: "text",
      x: laneX("inspector", width),
      y: cy + 5,
      text: g.label,
      fill: "muted",
      anchor: "middle",
      size: 13,
    },
  ];
}

/** The items of rows `from` to `to` (inclusive) and the lane lines behind them. */
export function buildScene(
  layout: SequenceLayout,
  options: { width: number; from: number; to: number; selectedSeq?: number | null },
): Scene {
  const { width, from, to } = options;
  const items: SceneItem[] = [];
  const first = layout.rows[from];
  const last = layout.rows[to];
  const top = first?.y ?? 0;
  const bottom = last ? last.y + last.height : top;
  for (let i = Math.max(0, from); i <= to && i < layout.rows.length; i++) {
    const row = layout.rows[i] as PlacedRow;
    const it = row.item;
    if (it.kind === "arrow") {
      const sel = options.selectedSeq;
      items.push({
        key: `a${it.seq}`,
        seq: it.seq,
        role: "button",
        ariaLabel: it.ariaLabel,
        selected: sel !== undefined && sel !== null && sel >= it.seq && sel <= it.lastSeq,
        shapes: arrowShapes(it, row, width, layout.startTs),
      });
    } else if (it.kind === "marker") {
      items.push({
        key: `m${it.seq}`,
        seq: it.seq,
        role: "separator",
        ariaLabel: it.label,
        selected: false,
        shapes: markerShapes(it, row, width, layout.startTs),
      });
    } else {
      items.push({
        key: `g${row.y}`,
        seq: null,
        role: "separator",
        ariaLabel: `idle for ${formatDuration(it.idleMs)}`,
        selected: false,
        shapes: gapShapes(it, row, width),
      });
    }
  }
  return { width: Math.max(width, MIN_WIDTH), top, bottom, lanes: laneLines(width, top, bottom), items };
}
