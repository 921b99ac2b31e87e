/** The swimlanes' geometry: gutter, lane x positions, the title strip, lane lines and text fitting. */

import { visibleText } from "../../model/text/visible-text.js";
import type { LaneId } from "./sequence-layout.js";
import type { Shape } from "./shape.js";

/** Width of the seq/time gutter on the left. */
export const GUTTER = 96;
/** The narrowest width the diagram lays out for (narrower containers scroll sideways). */
export const MIN_WIDTH = 640;
/** Height of the lane title strip. */
export const HEADER_HEIGHT = 34;
const LANE_FRACTION: Readonly<Record<LaneId, number>> = { client: 0.1, inspector: 0.5, agent: 0.9 };
/** Lane titles as drawn. */
export const LANE_TITLES: Readonly<Record<LaneId, string>> = {
  client: "Client",
  inspector: "Inspector",
  agent: "Agent",
};

/** The x of a lane's line for a diagram `width` px wide. */
export function laneX(lane: LaneId, width: number): number {
  const w = Math.max(width, MIN_WIDTH);
  return Math.round(GUTTER + (w - GUTTER - 8) * LANE_FRACTION[lane]);
}

/** Shortens `text` (its invisible controls shown, `visibleText`) to what fits in `px` at font `size` (about 0.6 em per character). */
export function fitText(wire: string, px: number, size: number): string {
  const text = visibleText(wire);
  const max = Math.max(4, Math.floor(px / (size * 0.6)));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The three vertical lane lines from `top` to `bottom`. */
export function laneLines(width: number, top: number, bottom: number): Shape[] {
  return (["client", "inspector", "agent"] as const).map((lane) => ({
    kind: "line",
    x1: laneX(lane, width),
    y1: top,
    x2: laneX(lane, width),
    y2: bottom,
    stroke: lane === "inspector" ? "accent" : "border",
    width: lane === "inspector" ? 2 : 1.5,
    dash: lane === "inspector" ? "4 4" : undefined,
  }));
}

/** The lane title strip (drawn above the rows, y from 0 to HEADER_HEIGHT). */
export function laneHeader(width: number): Shape[] {
  const w = Math.max(width, MIN_WIDTH);
  return [
    { kind: "rect", x: 0, y: 0, w, h: HEADER_HEIGHT, fill: "raised" },
    ...(["client", "inspector", "agent"] as const).map(
      (lane): Shape => ({
        kind: "text",
        x: laneX(lane, width),
        y: 22,
        text: LANE_TITLES[lane],
        fill: lane === "inspector" ? "accent" : "fg",
        anchor: "middle",
        size: 15,
        bold: true,
      }),
    ),
  ];
}
