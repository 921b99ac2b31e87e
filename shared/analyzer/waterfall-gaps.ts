/**
 * A waterfall time axis that compresses long idle gaps: a stretch of the track no span covers and
 * longer than `factor` times the median step between span starts (and than `minGapMs`) is drawn as
 * a fixed-width break marked with its real duration, so an hour of idle between two bursts does not
 * squeeze every bar to a sliver. Time outside the breaks keeps one scale. Bounded: past `maxSpans`
 * spans the axis stays linear.
 */
import type { WaterfallBar, WaterfallSpan, WaterfallWindow } from "./waterfall.js";

/** A cut stretch of idle time: `start`..`end` (epoch ms) drawn from `left` for `width` of the track. */
export interface AxisBreak {
  readonly start: number;
  readonly end: number;
  readonly left: number;
  readonly width: number;
}

/** A track's axis: where a time is drawn (a fraction of the width), and the breaks it cut. */
export interface TimeAxis {
  readonly track: WaterfallWindow;
  readonly breaks: readonly AxisBreak[];
  /** `t`'s place on the track, in [0, 1]. */
  place(t: number): number;
}

/** How gaps are found and drawn. */
export interface GapOptions {
  /** A gap is cut when longer than this many median steps (default 10). */
  readonly factor?: number;
  /** ...and longer than this (default 1000 ms): sub-second idles are drawn as they are. */
  readonly minGapMs?: number;
  /** Each break's width, a fraction of the track (default 0.04). */
  readonly breakWidth?: number;
  /** At most this many breaks, the longest gaps (default 6). */
  readonly maxBreaks?: number;
  /** Past this many spans the axis stays linear (default 20,000). */
  readonly maxSpans?: number;
}

/** The plain linear axis of a track. */
export function linearAxis(track: WaterfallWindow): TimeAxis {
  const len = track.end - track.start;
  return {
    track,
    breaks: [],
    place: (t) => (len > 0 ? Math.min(1, Math.max(0, (t - track.start) / len)) : 0),
  };
}

/** The median of `values` (sorted in place); null when empty. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  return values[Math.floor((values.length - 1) / 2)] as number;
}

/** The axis of `track` with the idle gaps between `spans` cut (see the file comment). */
export function gapAxis(
  spans: readonly WaterfallSpan[],
  track: WaterfallWindow,
  o: GapOptions = {},
): TimeAxis {
  const { factor = 10, minGapMs = 1000, breakWidth = 0.04, maxBreaks = 6, maxSpans = 20_000 } = o;
  const len = track.end - track.start;
  if (spans.length < 2 || spans.length > maxSpans || !(len > 0)) return linearAxis(track);
  const lastEnd = Math.max(...spans.map((s) => s.end ?? s.lostAt ?? s.start));
  const intervals = spans
    .map(
      (s) =>
        [s.start, s.state === "pending" ? Number.POSITIVE_INFINITY : (s.end ?? s.lostAt ?? s.start)] as const,
    )
    .sort((a, b) => a[0] - b[0]);
  const steps: number[] = [];
  for (let i = 1; i < intervals.length; i++) {
    const d =
      (intervals[i] as readonly [number, number])[0] - (intervals[i - 1] as readonly [number, number])[0];
    if (d > 0) steps.push(d);
  }
  const step = median(steps);
  if (step === null) return linearAxis(track);
  const threshold = Math.max(minGapMs, factor * step);
  // Idle stretches: between the end of everything so far and the next start.
  const gaps: { start: number; end: number }[] = [];
  let covered = (intervals[0] as readonly [number, number])[1];
  for (const [start, end] of intervals.slice(1)) {
    if (start - covered > threshold && covered <= lastEnd) gaps.push({ start: covered, end: start });
    covered = Math.max(covered, end);
  }
  if (gaps.length === 0) return linearAxis(track);
  const kept = gaps
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, maxBreaks)
    .sort((a, b) => a.start - b.start);
  const idle = kept.reduce((n, g) => n + (g.end - g.start), 0);
  const scale = (1 - kept.length * breakWidth) / (len - idle);
  const breaks: AxisBreak[] = [];
  let cursor = track.start;
  let pos = 0;
  for (const g of kept) {
    pos += (g.start - cursor) * scale;
    breaks.push({ start: g.start, end: g.end, left: pos, width: breakWidth });
    pos += breakWidth;
    cursor = g.end;
  }
  const place = (t: number): number => {
    let at = track.start;
    let x = 0;
    for (const b of breaks) {
      if (t <= b.start) break;
      if (t < b.end) return b.left + (breakWidth * (t - b.start)) / (b.end - b.start);
      x = b.left + breakWidth;
      at = b.end;
    }
    return Math.min(1, Math.max(0, x + (t - at) * scale));
  };
  return { track, breaks, place };
}

/** A span's bar on an axis; a pending bar runs to `reach` (the last time the trace shows). */
export function barOnAxis(span: WaterfallSpan, axis: TimeAxis, reach: number = axis.track.end): WaterfallBar {
  const open = span.state === "pending" || span.state === "lost" || span.state === "not-delivered";
  const left = axis.place(span.start);
  const right = axis.place(span.state === "pending" ? reach : (span.end ?? span.lostAt ?? span.start));
  return { left, width: Math.max(0, Math.min(1 - left, right - left)), state: span.state, open };
}
