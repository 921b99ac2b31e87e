/** The sequence diagram's drawing primitives, shared by the live view and the SVG export. */
import type { Tone } from "./frame-arrow.js";

/** A theme colour: the tones plus surfaces. `none` draws nothing. */
export type Paint = Tone | "border" | "bg" | "raised" | "selected" | "none";

/** One drawing primitive. `hit` rects are the click targets and selection highlight of a row. */
export type Shape =
  | {
      readonly kind: "line";
      readonly x1: number;
      readonly y1: number;
      readonly x2: number;
      readonly y2: number;
      readonly stroke: Paint;
      readonly width: number;
      readonly dash?: string;
    }
  | {
      readonly kind: "path";
      readonly d: string;
      readonly stroke: Paint;
      readonly fill: Paint;
      readonly width: number;
    }
  | {
      readonly kind: "rect";
      readonly x: number;
      readonly y: number;
      readonly w: number;
      readonly h: number;
      readonly fill: Paint;
      readonly hit?: boolean;
    }
  | {
      readonly kind: "circle";
      readonly cx: number;
      readonly cy: number;
      readonly r: number;
      readonly fill: Paint;
      readonly stroke: Paint;
    }
  | {
      readonly kind: "text";
      readonly x: number;
      readonly y: number;
      readonly text: string;
      readonly fill: Paint;
      readonly anchor: "start" | "middle" | "end";
      readonly size: number;
      readonly bold?: boolean;
      readonly mono?: boolean;
      /** Draw a background-coloured outline first so the text reads over lane lines. */
      readonly halo?: boolean;
    };
