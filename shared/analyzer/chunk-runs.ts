/**
 * Streamed chunks folded: a run of `session/update` notifications of one `*_chunk` kind
 * (`agent_message_chunk`, `agent_thought_chunk`, `user_message_chunk`) on one connection and
 * session, with nothing else between them, is one entry with its count, size and time span. Built
 * incrementally as records arrive (`ChunkFolder.add`), so a live trace costs a pass over its new
 * records only. Pure.
 */
import type { TraceRecord } from "../trace/record.js";

/** Past this many characters a frame is not looked into for a chunk kind (bounded walk of untrusted data). */
const MAX_SCAN = 1 << 20;

/** A frame's chunk kind and sessionId, when it is a `session/update` of a `*_chunk` kind; else null. */
export function chunkOf(r: TraceRecord): { kind: string; sessionId: string | null } | null {
  if (r.type !== "frame" || r.dir !== "agent->client" || r.encoding !== undefined) return null;
  const raw = r.raw;
  // cheap tests first: most frames are not chunks
  if (raw.length > MAX_SCAN || !raw.includes("_chunk") || !raw.includes("session/update")) return null;
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof msg !== "object" || msg === null || (msg as { method?: unknown }).method !== "session/update")
    return null;
  const params = (msg as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return null;
  const update = (params as { update?: unknown }).update;
  const kind =
    typeof update === "object" && update !== null
      ? (update as { sessionUpdate?: unknown }).sessionUpdate
      : null;
  if (typeof kind !== "string" || !kind.endsWith("_chunk")) return null;
  const sid = (params as { sessionId?: unknown }).sessionId;
  return { kind, sessionId: typeof sid === "string" ? sid : null };
}

/** A folded run of chunks (one object per state: a run that grows is replaced, so views see the change). */
export interface ChunkRun {
  readonly type: "chunk-run";
  /** The chunk kind, e.g. `agent_message_chunk`. */
  readonly kind: string;
  readonly conn: number;
  readonly sessionId: string | null;
  /** The seq of its first chunk (a run is found and selected by it). */
  readonly seq: number;
  readonly lastSeq: number;
  readonly count: number;
  /** Characters of the chunks' frames, together. */
  readonly bytes: number;
  readonly ts: number;
  readonly lastTs: number;
}

/** A record, or a run of chunk records folded into one. */
export type FoldedRecord = TraceRecord | ChunkRun;

/** True when `r` is a folded run. */
export function isChunkRun(r: unknown): r is ChunkRun {
  return typeof r === "object" && r !== null && (r as { type?: unknown }).type === "chunk-run";
}

/**
 * True when a run is still arriving: the trace is live and its last chunk came within `recentMs`
 * of `now` and is the trace's newest record (`newestSeq`); else it ended.
 */
export function stillArriving(
  run: ChunkRun,
  live: boolean,
  newestSeq: number,
  now: number,
  recentMs = 2000,
): boolean {
  return live && run.lastSeq === newestSeq && now - run.lastTs <= recentMs;
}

/**
 * Folds records as they come: `rows` holds every record, a run of two or more chunks of one kind,
 * connection and session as one `ChunkRun` in place of them (a single chunk stays a record).
 */
export class ChunkFolder {
  /** The folded rows, in arrival order. */
  readonly rows: FoldedRecord[] = [];
  private open: {
    kind: string;
    conn: number;
    sessionId: string | null;
    at: number;
    first: TraceRecord;
  } | null = null;

  /** Adds the next record. */
  add(r: TraceRecord): void {
    const c = chunkOf(r);
    const o = this.open;
    if (
      c &&
      o &&
      r.type === "frame" &&
      o.kind === c.kind &&
      o.conn === r.conn &&
      o.sessionId === c.sessionId
    ) {
      const prev = this.rows[o.at] as FoldedRecord;
      const run: ChunkRun = isChunkRun(prev)
        ? { ...prev, lastSeq: r.seq, count: prev.count + 1, bytes: prev.bytes + r.raw.length, lastTs: r.ts }
        : {
            type: "chunk-run",
            kind: c.kind,
            conn: r.conn,
            sessionId: c.sessionId,
            seq: o.first.seq,
            lastSeq: r.seq,
            count: 2,
            bytes: (o.first.type === "frame" ? o.first.raw.length : 0) + r.raw.length,
            ts: o.first.ts,
            lastTs: r.ts,
          };
      this.rows[o.at] = run;
      return;
    }
    this.rows.push(r);
    this.open =
      c && r.type === "frame"
        ? { kind: c.kind, conn: r.conn, sessionId: c.sessionId, at: this.rows.length - 1, first: r }
        : null;
  }
}
