/**
 * The sequence view's layout: trace records in, rows out (arrows between the Client, Inspector and
 * Agent lanes, horizontal markers for connection breaks, agent restarts and faults, and idle-gap
 * breaks), each with a y position. Time flows down one row per event; idle gaps longer than
 * IDLE_GAP_MS become a "… 3.2 s idle …" row, and runs of `session/update` chatter (streamed
 * `*_chunk` kinds among them) collapse into one arrow with its count per kind and its size. Pure: no React, no DOM.
 */
import type { TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import type { Direction, TraceRecord } from "../../../shared/trace/record.js";
import { type ArrowKind, attemptPlaces, describeFrame, RequestMethods, type Tone } from "./frame-arrow.js";

/** The three swimlanes, left to right. */
export type LaneId = "client" | "inspector" | "agent";

/** Idle time between two rows above which a gap row is drawn. */
export const IDLE_GAP_MS = 1000;
/** Row heights in px. */
export const ROW_HEIGHT = { arrow: 54, marker: 38, gap: 30 } as const;

/** Updates that never collapse into a burst: they carry the evidence keys are about. */
const BURST_BREAKERS = new Set(["user_message", "user_message_chunk", "state_update"]);

/** One frame, or a burst of `session/update` notifications, drawn as one arrow. */
export interface ArrowRow {
  readonly kind: "arrow";
  readonly seq: number;
  /** The last seq of a burst (equal to `seq` for a single frame). */
  readonly lastSeq: number;
  readonly ts: number;
  readonly conn: number;
  readonly dir: Direction;
  readonly arrow: ArrowKind;
  readonly from: LaneId;
  /** `inspector` when the inspector dropped the frame. */
  readonly to: LaneId;
  readonly dropped: boolean;
  /** How many frames this arrow stands for (more than 1 for a burst). */
  readonly count: number;
  readonly label: string;
  readonly detail: string;
  readonly tone: Tone;
  /** The accessible name: what a screen reader (and a test) calls this arrow. */
  readonly ariaLabel: string;
}

/** What a horizontal marker stands for. */
export type MarkerKind = "conn-open" | "conn-close" | "agent-spawn" | "agent-exit" | "fault" | "note";

/** A horizontal marker across the lanes. */
export interface MarkerRow {
  readonly kind: "marker";
  readonly marker: MarkerKind;
  readonly seq: number;
  readonly ts: number;
  readonly label: string;
  readonly tone: Tone;
}

/** A compressed idle gap. */
export interface GapRow {
  readonly kind: "gap";
  readonly ts: number;
  readonly idleMs: number;
  readonly label: string;
}

/** One row of the diagram. */
export type SequenceItem = ArrowRow | MarkerRow | GapRow;

/** A row with its vertical place. */
export interface PlacedRow {
  readonly item: SequenceItem;
  readonly y: number;
  readonly height: number;
}

/** The whole diagram's rows. */
export interface SequenceLayout {
  readonly rows: readonly PlacedRow[];
  readonly height: number;
  /** Frame records drawn (bursts count each frame). */
  readonly frames: number;
  /** `ts` of the first record, the origin of the time gutter. */
  readonly startTs: number | null;
}

/** "850 ms", "3.2 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.floor(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

function marker(r: TraceRecord): MarkerRow | null {
  const at = { kind: "marker" as const, seq: r.seq, ts: r.ts };
  switch (r.type) {
    case "conn-open":
      return {
        ...at,
        marker: "conn-open",
        label: `connection #${r.conn} opened (${r.transport})`,
        tone: "info",
      };
    case "conn-close":
      return {
        ...at,
        marker: "conn-close",
        label: `connection #${r.conn} closed: ${r.reason}`,
        tone: "error",
      };
    case "agent-spawn":
      return { ...at, marker: "agent-spawn", label: `agent ${r.pid} started`, tone: "ok" };
    case "agent-exit": {
      const how = r.signal ?? `code ${r.code ?? "?"}`;
      return { ...at, marker: "agent-exit", label: `agent ${r.pid} exited (${how})`, tone: "error" };
    }
    case "fault": {
      const on = r.frameSeq !== undefined ? ` on frame #${r.frameSeq}` : "";
      const rule = r.ruleId !== undefined ? ` (rule ${r.ruleId})` : "";
      return { ...at, marker: "fault", label: `fault: ${r.action}${on}${rule}`, tone: "warn" };
    }
    case "note": {
      const tone: Tone = r.level === "error" ? "error" : r.level === "warn" ? "warn" : "muted";
      return { ...at, marker: "note", label: `note: ${r.text}`, tone };
    }
    default:
      return null;
  }
}

interface Burst {
  seq: number;
  lastSeq: number;
  ts: number;
  lastTs: number;
  conn: number;
  kinds: Map<string, number>;
  count: number;
  /** Characters of its frames, together (a streamed answer's size). */
  bytes: number;
}

/** A size in words: "812 B", "1.2 kB". */
function sizeText(chars: number): string {
  return chars < 1024 ? `${chars} B` : `${(chars / 1024).toFixed(1)} kB`;
}

function burstRow(b: Burst): ArrowRow {
  const kinds = `${[...b.kinds].map(([k, n]) => `${k} ×${n}`).join(" · ")} · ${sizeText(b.bytes)}`;
  return {
    kind: "arrow",
    seq: b.seq,
    lastSeq: b.lastSeq,
    ts: b.ts,
    conn: b.conn,
    dir: "agent->client",
    arrow: "notification",
    from: "agent",
    to: "client",
    dropped: false,
    count: b.count,
    label: `session/update ×${b.count}`,
    detail: kinds,
    tone: "muted",
    ariaLabel: `${b.count} session/update notifications, ${sizeText(b.bytes)}, frames #${b.seq}–#${b.lastSeq}, connection #${b.conn}`,
  };
}

/** Lays out the records (in seq order); `model` adds submission and attempt labels to prompts. */
export function layoutSequence(
  records: readonly TraceRecord[],
  model: TimelineModel | null = null,
): SequenceLayout {
  const places = attemptPlaces(model);
  const methods = new RequestMethods();
  const rows: PlacedRow[] = [];
  let y = 0;
  let lastTs: number | null = null;
  let frames = 0;
  let burst: Burst | null = null;

  const place = (item: SequenceItem) => {
    const height = ROW_HEIGHT[item.kind];
    rows.push({ item, y, height });
    y += height;
  };
  const flushBurst = () => {
    if (!burst) return;
    place(burstRow(burst));
    burst = null;
  };
  const gapBefore = (ts: number) => {
    if (lastTs !== null && ts - lastTs > IDLE_GAP_MS) {
      flushBurst();
      const idleMs = ts - lastTs;
      place({ kind: "gap", ts, idleMs, label: `… ${formatDuration(idleMs)} idle …` });
    }
    lastTs = ts;
  };

  for (const r of records) {
    if (r.type === "agent-stderr") continue;
    gapBefore(r.ts);
    if (r.type !== "frame") {
      const m = marker(r);
      if (m) {
        flushBurst();
        place(m);
      }
      continue;
    }
    frames++;
    const a = describeFrame(r, methods, places);
    const chatter =
      a.method === "session/update" &&
      r.dir === "agent->client" &&
      !r.dropped &&
      !BURST_BREAKERS.has(a.updateKind ?? "");
    if (chatter) {
      const kind = a.updateKind ?? "?";
      if (burst && burst.conn === r.conn) {
        burst.count++;
        burst.lastSeq = r.seq;
        burst.lastTs = r.ts;
        burst.kinds.set(kind, (burst.kinds.get(kind) ?? 0) + 1);
        burst.bytes += r.raw.length;
        continue;
      }
      flushBurst();
      burst = {
        seq: r.seq,
        lastSeq: r.seq,
        ts: r.ts,
        lastTs: r.ts,
        conn: r.conn,
        kinds: new Map([[kind, 1]]),
        count: 1,
        bytes: r.raw.length,
      };
      continue;
    }
    flushBurst();
    const from: LaneId = r.dir === "client->agent" ? "client" : "agent";
    const far: LaneId = r.dir === "client->agent" ? "agent" : "client";
    const dropped = r.dropped === true;
    const what = a.arrow === "malformed" ? a.label : `${a.arrow} ${a.label}`;
    place({
      kind: "arrow",
      seq: r.seq,
      lastSeq: r.seq,
      ts: r.ts,
      conn: r.conn,
      dir: r.dir,
      arrow: a.arrow,
      from,
      to: dropped ? "inspector" : far,
      dropped,
      count: 1,
      label: a.label,
      detail: dropped ? ["dropped by the inspector", a.detail].filter(Boolean).join(" · ") : a.detail,
      tone: a.tone,
      ariaLabel: `${what}, ${from} to ${dropped ? "inspector (dropped)" : far}, frame #${r.seq}, connection #${r.conn}`,
    });
  }
  flushBurst();
  return { rows, height: y, frames, startTs: records[0]?.ts ?? null };
}

/** Index of the row that covers `y` (clamped to the first/last row); -1 when there are no rows. */
export function rowIndexAt(layout: SequenceLayout, y: number): number {
  const rows = layout.rows;
  if (rows.length === 0) return -1;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((rows[mid] as PlacedRow).y <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Index of the row drawing frame `seq` (a burst covers its whole seq range), or -1. */
export function rowIndexOfSeq(layout: SequenceLayout, seq: number): number {
  const rows = layout.rows;
  let lo = 0;
  let hi = rows.length - 1;
  // Rows are in seq order (gaps carry none): binary search on the nearest seq-bearing row.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    let m = mid;
    while (m <= hi && (rows[m] as PlacedRow).item.kind === "gap") m++;
    if (m > hi) {
      hi = mid - 1;
      continue;
    }
    const item = (rows[m] as PlacedRow).item as ArrowRow | MarkerRow;
    const last = item.kind === "arrow" ? item.lastSeq : item.seq;
    if (seq < item.seq) hi = mid - 1;
    else if (seq > last) lo = m + 1;
    else return m;
  }
  return -1;
}
