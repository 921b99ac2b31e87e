/**
 * The geometry of the Timeline's latency waterfall (Chrome DevTools Network's "Waterfall" column):
 * each request or attempt is a bar from its start offset for its duration, as fractions of a window
 * (the shown rows', or a submission's attempts'). A duration the trace does not show is never
 * invented: a pending request runs open-ended to the window's end, a lost one ends where the loss was
 * recorded, and a trace without real timestamps has no bars at all.
 */
import type { Attempt, Outcome } from "./timeline-model.js";

/** How a span ended, as far as the trace shows. */
export type SpanState =
  /** Answered: `end` is the answer's time. */
  | "done"
  /** Answered, but the inspector dropped (or never delivered) the answer: the client never saw it. */
  | "dropped"
  /** No answer yet: open-ended. */
  | "pending"
  /** The connection or the Agent went away first: no answer will come. */
  | "lost"
  /** The inspector dropped the request: the Agent never saw it. */
  | "not-delivered";

/** One request's time span; `end` only when an answer came. */
export interface WaterfallSpan {
  readonly start: number;
  readonly end: number | null;
  readonly state: SpanState;
  /** For `lost`: when the loss (the connection's close, the Agent's exit) was recorded, if known. */
  readonly lostAt?: number;
}

/** The time window bars are drawn in, epoch ms. */
export interface WaterfallWindow {
  readonly start: number;
  readonly end: number;
}

/** A bar as fractions of the window's width: `left` and `width` in [0, 1], `left + width ≤ 1`. */
export interface WaterfallBar {
  readonly left: number;
  readonly width: number;
  readonly state: SpanState;
  /** True when the bar's right end is not an answer (pending, lost, not delivered). */
  readonly open: boolean;
}

/** The span of a request from its send time, its latency (null: no answer) and its outcome. */
export function spanOf(
  sentAt: number,
  latencyMs: number | null,
  outcome: Outcome,
  lostAt?: number,
): WaterfallSpan {
  const end = latencyMs === null ? null : sentAt + latencyMs;
  if (outcome.kind === "pending") return { start: sentAt, end: null, state: "pending" };
  if (outcome.kind === "lost")
    return { start: sentAt, end: null, state: "lost", ...(lostAt !== undefined && { lostAt }) };
  if (outcome.kind === "dropped") {
    if (outcome.frame === "request") return { start: sentAt, end: null, state: "not-delivered" };
    return end === null
      ? { start: sentAt, end: null, state: "pending" }
      : { start: sentAt, end, state: "dropped" };
  }
  return end === null
    ? { start: sentAt, end: null, state: "pending" }
    : { start: sentAt, end, state: "done" };
}

/** The time of the record with a seq, when known (a lost outcome names the record of its loss). */
export type TsOf = (seq: number) => number | undefined;

/** An attempt's span (see `spanOf`); `tsOf` finds when a lost attempt's loss was recorded. */
export function attemptSpan(a: Attempt, tsOf?: TsOf): WaterfallSpan {
  const lostAt = a.outcome.kind === "lost" ? tsOf?.(a.outcome.seq) : undefined;
  return spanOf(a.sentAt, a.latencyMs, a.outcome, lostAt);
}

/**
 * A submission's span: from its first attempt's send to the latest known end of its attempts, in the
 * state of the attempt that ends last; pending while any attempt is. Null without attempts.
 */
export function submissionSpan(attempts: readonly Attempt[], tsOf?: TsOf): WaterfallSpan | null {
  const spans = attempts.map((a) => attemptSpan(a, tsOf));
  const first = spans[0];
  if (!first) return null;
  const start = Math.min(...spans.map((s) => s.start));
  if (spans.some((s) => s.state === "pending")) return { start, end: null, state: "pending" };
  let last = first;
  for (const s of spans) if (knownEnd(s) >= knownEnd(last)) last = s;
  return { ...last, start };
}

/** The last time a span is known to reach: its answer, its loss, or its start. */
function knownEnd(s: WaterfallSpan): number {
  return s.end ?? s.lostAt ?? s.start;
}

/**
 * The window holding every span: from the earliest start to the latest known end; `now` (the
 * latest record's time) extends it while a span is pending. Null when there is no span.
 */
export function windowOf(spans: Iterable<WaterfallSpan>, now?: number): WaterfallWindow | null {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let pending = false;
  for (const s of spans) {
    start = Math.min(start, s.start);
    end = Math.max(end, knownEnd(s));
    if (s.state === "pending") pending = true;
  }
  if (start === Number.POSITIVE_INFINITY) return null;
  if (pending && now !== undefined) end = Math.max(end, now);
  return { start, end };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** A track's lengths per decade: 1, 1.5, 2, 3, 4, 5 and 7.5 times a power of ten (ms). */
const TRACK_STEPS = [1, 1.5, 2, 3, 4, 5, 7.5, 10];

/**
 * The track bars are drawn on for a window: the same start, and the window's length rounded up to
 * the next of `TRACK_STEPS` (a live window 12.3 s long is drawn on a 15 s track). The track stays
 * put while the window grows inside it, so the shown bars keep their places and only new rows are
 * drawn; when the window outgrows it, the next step rescales every bar at once (at most 7 times a
 * decade), as a time axis does. The window fills more than two thirds of its track.
 */
export function trackOf(w: WaterfallWindow): WaterfallWindow {
  const len = w.end - w.start;
  if (!(len > 0) || !Number.isFinite(len)) return w;
  const decade = 10 ** Math.floor(Math.log10(len));
  const step = TRACK_STEPS.find((s) => s * decade >= len) ?? 10;
  return { start: w.start, end: w.start + step * decade };
}

/**
 * The bar of a span on a track (a window, or `trackOf` one); a zero-length track puts every bar at
 * its left edge with width 0. A pending bar runs to `reach`, the last time the trace shows (the
 * window's end), never further: by default the track's end.
 */
export function barOf(span: WaterfallSpan, w: WaterfallWindow, reach: number = w.end): WaterfallBar {
  const len = w.end - w.start;
  const open = span.state === "pending" || span.state === "lost" || span.state === "not-delivered";
  if (len <= 0) return { left: 0, width: span.state === "pending" ? 1 : 0, state: span.state, open };
  const left = clamp01((span.start - w.start) / len);
  const right = span.state === "pending" ? reach : knownEnd(span);
  const width = Math.min(1 - left, clamp01((right - span.start) / len));
  return { left, width, state: span.state, open };
}

/** "850 ms", "3.2 s", "2 min 5 s", "1 h 3 min". */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.floor(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A track's length: "750 ms", "15 s", "1.5 s", "2 min 0 s" (a track is a round length: no ".0"). */
export function trackText(ms: number): string {
  if (ms >= 1000 && ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return durationText(ms);
}

/** What a span's latency cell says: its duration, or why there is none. */
export function latencyText(span: WaterfallSpan | null): string {
  if (span === null) return "time unknown";
  switch (span.state) {
    case "done":
      return durationText((span.end as number) - span.start);
    case "dropped":
      return `${durationText((span.end as number) - span.start)}, answer dropped`;
    case "pending":
      return "pending";
    case "lost":
      return span.lostAt !== undefined
        ? `no answer (lost after ${durationText(span.lostAt - span.start)})`
        : "no answer (lost)";
    case "not-delivered":
      return "not delivered";
  }
}
