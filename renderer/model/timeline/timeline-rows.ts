/**
 * The timeline as a flat list of display rows: one per submission, other request and malformed
 * frame, in order of their first frame, with the trace's lifecycle and fault events (when shown) as
 * event rows among them in seq order; an expanded submission is followed by its attempts (and the
 * events between its first and last attempt, in order), an expanded attempt (or request) by its
 * frames. Filters apply to the top-level rows and hide top-level events; a sort by a column other
 * than time orders the top-level rows by it (children stay under their row) and leaves events out.
 */
import type { Attempt, LifecycleEvent, Submission } from "../../../shared/analyzer/timeline-model.js";
import type { Direction, TraceRecord } from "../../../shared/trace/record.js";
import type { RawOf, TimelineFilter, TopRow } from "../filter/timeline-filter.js";
import type { TimelineView } from "../traces/timeline-view.js";
import { searchIndexOf } from "./search-index.js";

/** The record with a seq in the shown trace, if held. */
export type RecordOf = (seq: number) => TraceRecord | undefined;

/** How many characters of a frame a frame row shows. */
const FRAME_PREVIEW_CHARS = 160;

/** One display row. `key` is unique and stable; `seq` is the first frame it stands for. */
export type TimelineRow =
  | (TopRow & { readonly key: string; readonly depth: 0; readonly seq: number; readonly expandable: boolean })
  | {
      readonly kind: "attempt";
      readonly key: string;
      readonly depth: 1;
      readonly seq: number;
      readonly expandable: true;
      readonly submission: Submission;
      readonly attempt: Attempt;
      /** 1-based attempt number within its submission. */
      readonly number: number;
    }
  | {
      readonly kind: "frame";
      readonly key: string;
      readonly depth: 1 | 2;
      readonly seq: number;
      readonly expandable: false;
      /** What the frame is to its parent: request, response or cancel. */
      readonly role: string;
      readonly conn: number | undefined;
      readonly dir: Direction | undefined;
      /** The first characters of the frame's bytes. */
      readonly preview: string;
      readonly dropped: boolean;
    }
  | (Extract<TopRow, { kind: "request" }> & {
      /** A request sent between the attempts of an expanded submission (a resume, a cancel), shown among them. */
      readonly key: string;
      readonly depth: 1;
      readonly seq: number;
      readonly expandable: false;
    })
  | {
      readonly kind: "event";
      readonly key: string;
      /** 0 among the top-level rows, 1 between the attempts of an expanded submission. */
      readonly depth: 0 | 1;
      readonly seq: number;
      readonly expandable: false;
      readonly event: LifecycleEvent;
    };

/** How the top-level rows are ordered: by time (seq), or by a column's value (nulls last either way). */
export type RowOrder =
  | { readonly by: "time"; readonly desc: boolean }
  | {
      readonly by: "value";
      readonly desc: boolean;
      readonly value: (row: TimelineRow) => number | string | null;
    };

/** Trace order, oldest first. */
export const TIME_ORDER: RowOrder = { by: "time", desc: false };

const eventRows = new WeakMap<LifecycleEvent, TimelineRow[]>();

/** The row of an event at a depth (one object per event and depth, so unchanged rows keep their identity). */
function eventRow(event: LifecycleEvent, depth: 0 | 1): TimelineRow {
  let pair = eventRows.get(event);
  if (!pair) {
    const make = (d: 0 | 1): TimelineRow => ({
      kind: "event",
      key: `e${event.seq}`,
      depth: d,
      seq: event.seq,
      expandable: false,
      event,
    });
    pair = [make(0), make(1)];
    eventRows.set(event, pair);
  }
  return pair[depth] as TimelineRow;
}

/** The index of the first event with a seq above `seq` (events are in seq order). */
function firstAfter(events: readonly LifecycleEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid] as LifecycleEvent).seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The seqs from a submission's first attempt to its last one: the events between are shown among its attempts. */
function attemptRange(s: Submission): [number, number] | null {
  const first = s.attempts[0];
  const last = s.attempts[s.attempts.length - 1];
  return first && last && last.requestSeq > first.requestSeq ? [first.requestSeq, last.requestSeq] : null;
}

/** Sorts rows by a value, stable, nulls last in either direction. */
function sortByValue(rows: TimelineRow[], order: Extract<RowOrder, { by: "value" }>): TimelineRow[] {
  const keyed = rows.map((row, i) => ({ row, i, v: order.value(row) }));
  const sign = order.desc ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
    const c =
      typeof a.v === "number" && typeof b.v === "number"
        ? a.v - b.v
        : String(a.v).localeCompare(String(b.v), undefined, { numeric: true });
    return c !== 0 ? sign * c : a.i - b.i;
  });
  return keyed.map((k) => k.row);
}

const topCache = new WeakMap<object, TimelineRow>();

function topRow(top: TopRow): TimelineRow {
  const cached = topCache.get(top.row);
  if (cached) return cached;
  let row: TimelineRow;
  if (top.kind === "submission") {
    const seq = top.row.attempts[0]?.requestSeq ?? 0;
    row = { ...top, key: `s${top.row.id}`, depth: 0, seq, expandable: true };
  } else if (top.kind === "request") {
    const seq = top.row.requestSeq ?? top.row.responseSeq ?? 0;
    row = { ...top, key: `r${top.row.id}`, depth: 0, seq, expandable: true };
  } else {
    row = { ...top, key: `m${top.row.id}`, depth: 0, seq: top.row.seq, expandable: false };
  }
  topCache.set(top.row, row);
  return row;
}

function attemptFrames(a: Attempt): { seq: number; role: string }[] {
  return a.frameSeqs.map((seq) => ({
    seq,
    role:
      seq === a.requestSeq
        ? "request"
        : seq === a.cancelSeq
          ? "cancel"
          : a.origin === "inspector" && seq !== a.responseSeq
            ? "response as forwarded to the client"
            : "response",
  }));
}

function makeFrameRow(recordOf: RecordOf, key: string, depth: 1 | 2, seq: number, role: string): TimelineRow {
  const r = recordOf(seq);
  const f = r?.type === "frame" ? r : undefined;
  return {
    kind: "frame",
    key,
    depth,
    seq,
    expandable: false,
    role,
    conn: f?.conn,
    dir: f?.dir,
    preview: f ? f.raw.slice(0, FRAME_PREVIEW_CHARS) : "(not held: cleared or before this window subscribed)",
    dropped: f?.dropped === true,
  };
}

/**
 * The row a selection key stands for (`s12`, `s12.a0`, `s12.a0.f40`, `r7`, `r7.f41`, `m9`, `e5`),
 * built from the view as `displayRows` builds it; undefined when the view no longer has it.
 */
export function rowOfKey(
  key: string,
  view: TimelineView,
  eventAt: (seq: number) => LifecycleEvent | undefined,
  recordOf: RecordOf,
): TimelineRow | undefined {
  const m = /^(s|r|m|e)(\d+)(?:\.a(\d+))?(?:\.f(\d+))?$/.exec(key);
  if (!m) return undefined;
  const id = Number(m[2]);
  const frame = m[4] === undefined ? undefined : Number(m[4]);
  if (m[1] === "e") {
    const e = eventAt(id);
    return e ? eventRow(e, 0) : undefined;
  }
  if (m[1] === "m") {
    const row = view.malformed.find((x) => x.id === id);
    return row ? topRow({ kind: "malformed", row }) : undefined;
  }
  if (m[1] === "r") {
    const row = view.requests.find((x) => x.id === id);
    if (!row) return undefined;
    if (frame === undefined) return topRow({ kind: "request", row });
    return makeFrameRow(recordOf, key, 1, frame, frame === row.requestSeq ? "request" : "response");
  }
  const sub = view.submissions.find((x) => x.id === id);
  if (!sub) return undefined;
  if (m[3] === undefined) return topRow({ kind: "submission", row: sub });
  const n = Number(m[3]);
  const attempt = sub.attempts[n];
  if (!attempt) return undefined;
  if (frame !== undefined) {
    const role = attemptFrames(attempt).find((f) => f.seq === frame)?.role ?? "frame";
    return makeFrameRow(recordOf, key, 2, frame, role);
  }
  return {
    kind: "attempt",
    key,
    depth: 1,
    seq: attempt.requestSeq,
    expandable: true,
    submission: sub,
    attempt,
    number: n + 1,
  };
}

/** Top-level rows of a view in order of their first frame (the three row lists are each in that order). */
export function topRows(view: TimelineView): TimelineRow[] {
  const out: TimelineRow[] = [];
  const { submissions: s, requests: r, malformed: m } = view;
  let i = 0;
  let j = 0;
  let k = 0;
  const seqS = () => s[i]?.attempts[0]?.requestSeq ?? Number.POSITIVE_INFINITY;
  const seqR = () => {
    const q = r[j];
    return q ? (q.requestSeq ?? q.responseSeq ?? 0) : Number.POSITIVE_INFINITY;
  };
  const seqM = () => m[k]?.seq ?? Number.POSITIVE_INFINITY;
  while (i < s.length || j < r.length || k < m.length) {
    const a = seqS();
    const b = seqR();
    const c = seqM();
    if (a <= b && a <= c) out.push(topRow({ kind: "submission", row: s[i++] as Submission }));
    else if (b <= c) out.push(topRow({ kind: "request", row: r[j++] as NonNullable<(typeof r)[number]> }));
    else out.push(topRow({ kind: "malformed", row: m[k++] as NonNullable<(typeof m)[number]> }));
  }
  return out;
}

/** A frame's raw bytes by seq, from the records. */
export function rawOfRecord(recordOf: RecordOf): RawOf {
  return (seq) => {
    const r = recordOf(seq);
    return r?.type === "frame" ? r.raw : undefined;
  };
}

type TopLevelRow = Extract<TimelineRow, TopRow>;
const topLevel = new WeakMap<readonly TimelineRow[], readonly TopLevelRow[]>();

/** The top-level rows among `tops` (the same array each time, so their search index is kept). */
export function topLevelOf(tops: readonly TimelineRow[]): readonly TopLevelRow[] {
  let out = topLevel.get(tops);
  if (!out) {
    out = tops.filter((r): r is TopLevelRow => r.depth === 0 && r.kind !== "event");
    topLevel.set(tops, out);
  }
  return out;
}

/** What `displayRows` shows besides the rows: the lifecycle events (none: hidden) and the order. */
export interface DisplayOptions {
  /** The trace's events in seq order; absent or empty when "Lifecycle events" is off. */
  readonly events?: readonly LifecycleEvent[];
  /**
   * The trace's events in seq order, shown among an expanded submission's attempts whether or not
   * "Lifecycle events" is on (the kill, exit or reconnect between two attempts is the story); default `events`.
   */
  readonly groupEvents?: readonly LifecycleEvent[];
  readonly order?: RowOrder;
}

/** The rows to display: filtered top-level rows, ordered, with the expanded ones' children after them. */
export function displayRows(
  tops: readonly TimelineRow[],
  filter: TimelineFilter | undefined,
  expanded: ReadonlySet<string>,
  recordOf: RecordOf,
  options: DisplayOptions = {},
): TimelineRow[] {
  const events = options.events ?? [];
  const groupEvents = options.groupEvents ?? events;
  const order = options.order ?? TIME_ORDER;
  const rawOf = rawOfRecord(recordOf);
  const frameRow = (key: string, depth: 1 | 2, seq: number, role: string) =>
    makeFrameRow(recordOf, key, depth, seq, role);
  let level: TimelineRow[] = filter
    ? searchIndexOf(topLevelOf(tops)).filter(filter, rawOf)
    : topLevelOf(tops).slice();
  // Events and requests shown among an expanded submission's attempts are not shown again at the top.
  const inside = new Set<number>();
  const between = expanded.size > 0 ? requestsBetween(level, expanded) : NONE_BETWEEN;
  if (between.moved.size > 0) level = level.filter((r) => !between.moved.has(r));
  if (groupEvents.length > 0 && expanded.size > 0) {
    for (const row of level) {
      if (row.kind !== "submission" || !expanded.has(row.key)) continue;
      const range = attemptRange(row.row);
      if (!range) continue;
      for (let i = firstAfter(groupEvents, range[0]); i < groupEvents.length; i++) {
        const e = groupEvents[i] as LifecycleEvent;
        if (e.seq >= range[1]) break;
        inside.add(e.seq);
      }
    }
  }
  if (order.by === "value") {
    level = sortByValue(level, order);
  } else {
    if (!filter && events.length > 0) level = mergeEvents(level, events, inside);
    if (order.desc) level.reverse();
  }
  // Nothing open: the rows are the level itself (no pass over 77k rows to find none).
  if (expanded.size === 0) return level;
  const out: TimelineRow[] = [];
  // An event between the attempts of two expanded submissions (interleaved sessions) shows once.
  const placed = new Set<number>();
  for (const row of level) {
    out.push(row);
    if (!expanded.has(row.key)) continue;
    if (row.kind === "submission") {
      const range = groupEvents.length > 0 ? attemptRange(row.row) : null;
      let next = range ? firstAfter(groupEvents, range[0]) : groupEvents.length;
      const requests = between.bySubmission.get(row) ?? [];
      let nextRequest = 0;
      row.row.attempts.forEach((attempt, n) => {
        // What happened before this attempt, in trace order: events and requests merged by seq.
        for (;;) {
          const e = groupEvents[next];
          const eventDue =
            e !== undefined && range !== null && e.seq < range[1] && e.seq < attempt.requestSeq;
          const q = requests[nextRequest];
          const requestDue = q !== undefined && q.seq < attempt.requestSeq;
          if (!eventDue && !requestDue) break;
          if (requestDue && (!eventDue || (q as TimelineRow).seq < (e as LifecycleEvent).seq)) {
            out.push(q as TimelineRow);
            nextRequest++;
            continue;
          }
          next++;
          if (placed.has((e as LifecycleEvent).seq)) continue;
          placed.add((e as LifecycleEvent).seq);
          out.push(eventRow(e as LifecycleEvent, 1));
        }
        const key = `${row.key}.a${n}`;
        out.push({
          kind: "attempt",
          key,
          depth: 1,
          seq: attempt.requestSeq,
          expandable: true,
          submission: row.row,
          attempt,
          number: n + 1,
        });
        if (!expanded.has(key)) return;
        for (const f of attemptFrames(attempt)) {
          out.push(frameRow(`${key}.f${f.seq}`, 2, f.seq, f.role));
        }
      });
    } else if (row.kind === "request") {
      const r = row.row;
      const frames = [
        { seq: r.requestSeq, role: "request" },
        { seq: r.responseSeq, role: "response" },
      ].filter((f): f is { seq: number; role: string } => f.seq !== null);
      for (const f of frames) {
        out.push(frameRow(`${row.key}.f${f.seq}`, 1, f.seq, f.role));
      }
    }
  }
  return out;
}

/** Requests shown between attempts: by the submission row they are under, and the top-level rows they replace. */
interface Between {
  readonly bySubmission: ReadonlyMap<TimelineRow, TimelineRow[]>;
  readonly moved: ReadonlySet<TimelineRow>;
}

const NONE_BETWEEN: Between = { bySubmission: new Map(), moved: new Set() };

/** Session-life methods shown between a submission's attempts when sent between them. */
const BETWEEN_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "authenticate",
  "session/load",
  "session/resume",
  "session/new",
  "session/cancel",
  "$/cancel_request",
]);

const betweenRows = new WeakMap<object, TimelineRow>();

/**
 * The requests sent between the first and last attempt of each expanded submission that belong to
 * its story (a resume or load of its session, a cancel, a reconnect's initialize), by submission
 * row, as depth-1 rows in seq order, and the top-level rows they replace.
 */
function requestsBetween(level: readonly TimelineRow[], expanded: ReadonlySet<string>): Between {
  const groups = new Map<TimelineRow, TimelineRow[]>();
  const moved = new Set<TimelineRow>();
  const open: { row: TimelineRow; s: Submission; range: [number, number] }[] = [];
  for (const row of level) {
    if (row.kind === "submission" && expanded.has(row.key)) {
      const range = attemptRange(row.row);
      if (range) open.push({ row, s: row.row, range });
    }
  }
  if (open.length > 0) {
    for (const row of level) {
      if (row.kind !== "request" || row.depth !== 0 || row.row.method === null) continue;
      if (!BETWEEN_METHODS.has(row.row.method)) continue;
      const sid = row.row.sessionId;
      const owner = open.find(
        (o) =>
          row.seq > o.range[0] &&
          row.seq < o.range[1] &&
          (sid === undefined || sid === null || sid === o.s.sessionId),
      );
      if (!owner) continue;
      let child = betweenRows.get(row.row);
      if (!child) {
        child = { kind: "request", row: row.row, key: row.key, depth: 1, seq: row.seq, expandable: false };
        betweenRows.set(row.row, child);
      }
      const list = groups.get(owner.row) ?? [];
      list.push(child);
      groups.set(owner.row, list);
      moved.add(row);
    }
  }
  return moved.size === 0 ? NONE_BETWEEN : { bySubmission: groups, moved };
}

/** Top-level rows and events merged by seq (both in seq order), leaving out the events in `skip`. */
function mergeEvents(
  rows: readonly TimelineRow[],
  events: readonly LifecycleEvent[],
  skip: ReadonlySet<number>,
): TimelineRow[] {
  const out: TimelineRow[] = [];
  let j = 0;
  for (const row of rows) {
    for (; j < events.length && (events[j] as LifecycleEvent).seq < row.seq; j++) {
      const e = events[j] as LifecycleEvent;
      if (!skip.has(e.seq)) out.push(eventRow(e, 0));
    }
    out.push(row);
  }
  for (; j < events.length; j++) {
    const e = events[j] as LifecycleEvent;
    if (!skip.has(e.seq)) out.push(eventRow(e, 0));
  }
  return out;
}
