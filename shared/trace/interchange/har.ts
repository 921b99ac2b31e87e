/**
 * HAR (HTTP Archive 1.2, http://www.softwareishard.com/blog/har-12-spec/) both ways.
 *
 * Import reads two kinds of entries:
 * - WebSocket: Chrome DevTools writes a socket's frames in the entry's `_webSocketMessages`
 *   (devtools-frontend front_end/models/har/Log.ts): `{type: "send"|"receive", time, opcode, data}`,
 *   `time` in epoch seconds, opcode 1 text, 2 binary (data in base64), 8/9/10 close/ping/pong. The
 *   page is taken to be the ACP Client: `send` is client->agent, `receive` agent->client. One
 *   connection per entry.
 * - Streamable HTTP: a POST's `request.postData.text` is a client frame (at `startedDateTime`); the
 *   response body (`response.content.text`, base64 when `encoding` says so) is one agent frame when
 *   it is JSON, or one agent frame per event's `data` when it is `text/event-stream` (all at the
 *   response's end, `startedDateTime + time`: HAR keeps no time per event). Entries sharing an
 *   `Acp-Connection-Id` header (request, else response) are one connection.
 * Other entries (pages, scripts) are counted in one note and otherwise left out.
 *
 * Export writes either style; each message or entry carries `_acpRetryInspector` metadata (seq,
 * connection, flags) and the log carries the header and the non-frame records, so converting back
 * gives the same records in the same order, with every frame's bytes read from the HAR's own fields.
 */

import { asJsonObject } from "../../protocol/json-object.js";
import { parseRecordLine } from "../codec.js";
import { checkHeader } from "../header-check.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../record.js";
import { checkRecord, isInvalidRecord } from "../record-check.js";
import { base64Bytes, bytesBase64, utf8Decode, utf8Encode } from "./bytes.js";
import {
  type Conversion,
  convertEntry,
  convertedHeader,
  isoTime,
  RecordBuilder,
  safeJson,
} from "./conversion.js";

/** The `imported.format` of a converted HAR. */
export const HAR = "har";

/** How `traceToHar` writes frames. */
export type HarStyle = "websocket" | "http";

type Json = Record<string, unknown>;

/** Per-frame metadata our export writes beside each frame's bytes. */
interface FrameMeta {
  readonly seq: number;
  readonly ts: number;
  readonly conn: number;
  readonly dir: FrameRecord["dir"];
  /** The record's own `encoding` (its raw is base64 of bytes that are not UTF-8). */
  readonly encoding?: "base64";
  /** The text in the HAR is base64 of the frame's UTF-8 text (an SSE data line cannot hold CR or LF). */
  readonly wrapped?: true;
  readonly flags?: FrameRecord["flags"];
  readonly bytes?: number;
  readonly dropped?: true;
  readonly held?: true;
  readonly origin?: FrameRecord["origin"];
  readonly replaces?: string | number;
  readonly copyOf?: number;
}

/** The log-level metadata of our export. */
interface LogMeta {
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  for (const h of headers) {
    const o = asJsonObject(h);
    if (o && typeof o.name === "string" && o.name.toLowerCase() === name && typeof o.value === "string")
      return o.value;
  }
  return undefined;
}

/** The `data` of each event of a `text/event-stream` body (spec: data lines joined by LF). */
export function sseEvents(text: string): string[] {
  const events: string[] = [];
  let data: string[] | null = null;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data) events.push(data.join("\n"));
      data = null;
    } else if (line === "data" || line.startsWith("data:")) {
      const v = line.slice(5);
      data ??= [];
      data.push(v.startsWith(" ") ? v.slice(1) : v);
    }
  }
  if (data) events.push(data.join("\n"));
  return events;
}

interface Pending {
  readonly ts: number;
  readonly order: number;
  readonly connKey: string;
  readonly transport: string;
  readonly peer: string;
  readonly emit: (b: RecordBuilder, ts: number, conn: number) => void;
}

/** Converts a parsed HAR document. */
export function convertHar(doc: unknown): Conversion {
  const log = asJsonObject(asJsonObject(doc)?.log);
  const entries = Array.isArray(log?.entries) ? (log.entries as unknown[]) : [];
  const meta = asJsonObject(log?._acpRetryInspector) as LogMeta | null;
  return meta && asJsonObject(meta.header) && Array.isArray(meta.records)
    ? fromOurExport(entries, meta)
    : fromBrowser(entries);
}

/** The frame record our export described by `m`, with its bytes from the HAR's `text`. */
function frameFrom(m: FrameMeta, text: string): FrameRecord | string {
  let raw = text;
  if (m.wrapped) {
    const bytes = base64Bytes(text);
    if (!bytes) return "wrapped frame text is not base64";
    const decoded = utf8Decode(bytes);
    if (decoded === null) return "wrapped frame text is not UTF-8";
    raw = decoded;
  }
  return {
    type: "frame",
    seq: m.seq,
    ts: m.ts,
    conn: m.conn,
    dir: m.dir,
    raw,
    ...(m.encoding ? { encoding: m.encoding } : {}),
    ...(m.flags ? { flags: m.flags } : {}),
    ...(m.bytes !== undefined ? { bytes: m.bytes } : {}),
    ...(m.dropped ? { dropped: m.dropped } : {}),
    ...(m.held === true ? { held: true as const } : {}),
    ...(m.origin === "tap" || m.origin === "inspector" ? { origin: m.origin } : {}),
    ...(typeof m.replaces === "string" || typeof m.replaces === "number" ? { replaces: m.replaces } : {}),
    ...(typeof m.copyOf === "number" ? { copyOf: m.copyOf } : {}),
  };
}

/** A HAR written by `traceToHar`: the records back in seq order, each frame's bytes read from the HAR. */
function fromOurExport(entries: readonly unknown[], meta: LogMeta): Conversion {
  const frames: FrameRecord[] = [];
  const problems: string[] = [];
  const notes: TraceRecord[] = [];
  const keep = (where: string, m: FrameMeta, text: string | undefined) => {
    let f: FrameRecord | string;
    try {
      f = text === undefined ? "no frame text" : frameFrom(m, text);
      // The metadata is the file's word: the frame it describes is checked like any record.
      const checked = typeof f === "string" ? null : checkRecord(f);
      if (checked !== null && isInvalidRecord(checked))
        f = `its metadata is wrong (${checked.faults.map((x) => `${x.field} ${x.reason}`).join("; ")})`;
    } catch (err) {
      f = `could not be read (${err instanceof Error ? err.name : "error"})`;
    }
    if (typeof f !== "string") return frames.push(f);
    problems.push(`${where}: ${f}`);
    const seq = (m as Partial<FrameMeta> | null)?.seq;
    if (typeof seq === "number" && Number.isSafeInteger(seq) && seq > 0)
      notes.push({
        type: "note",
        seq,
        ts: typeof m?.ts === "number" && Number.isFinite(m.ts) ? m.ts : 0,
        level: "warn",
        text: `frame seq ${seq} lost in the HAR: ${f}`,
      });
  };
  for (const [i, entry] of entries.entries()) {
    const e = asJsonObject(entry);
    const em = asJsonObject(e?._acpRetryInspector);
    const ws = e?._webSocketMessages;
    if (Array.isArray(ws)) {
      for (const [j, raw] of ws.entries()) {
        const m = asJsonObject(raw);
        const fm = asJsonObject(m?._acpRetryInspector) as FrameMeta | null;
        if (fm) keep(`entry ${i + 1} message ${j + 1}`, fm, typeof m?.data === "string" ? m.data : undefined);
        else problems.push(`entry ${i + 1} message ${j + 1}: no frame metadata, left out`);
      }
    } else if (em && Array.isArray(em.frames)) {
      const texts: string[] = [];
      const post = asJsonObject(asJsonObject(e?.request)?.postData);
      if (typeof post?.text === "string") texts.push(post.text);
      const content = asJsonObject(asJsonObject(e?.response)?.content);
      if (typeof content?.text === "string") texts.push(...sseEvents(content.text));
      for (const [k, fm] of (em.frames as FrameMeta[]).entries()) keep(`entry ${i + 1}`, fm, texts[k]);
    }
  }
  // The non-frame records come back only when they read as records (a hand-edited HAR may hold anything).
  const others: TraceRecord[] = [];
  for (const [k, r] of meta.records.entries()) {
    const parsed = parseRecordLine(safeJson(r));
    if (typeof parsed === "string") problems.push(`log record ${k + 1}: ${parsed}`);
    else if (!("type" in parsed) || typeof parsed.type !== "string")
      problems.push(`log record ${k + 1}: not a valid record, left out`);
    else if (parsed.type !== "frame") others.push(parsed);
    else problems.push(`log record ${k + 1}: a frame outside the entries, left out`);
  }
  const records = [...frames, ...notes, ...others].sort((x, y) => x.seq - y.seq);
  const checked = checkHeader(meta.header);
  if ("problem" in checked) problems.push(`log header: ${checked.problem}; a new one is written`);
  const { imported: _dropped, ...header } =
    "header" in checked ? checked.header : convertedHeader({ format: HAR, lacks: [] }, isoTime(0));
  return { header: { ...header, imported: { format: HAR, lacks: [] } }, records, problems };
}

/** A HAR from a browser (or any other tool). */
function fromBrowser(entries: readonly unknown[]): Conversion {
  const pending: Pending[] = [];
  let order = 0;
  let skipped = 0;
  let httpFrames = false;
  const add = (p: Omit<Pending, "order">) => pending.push({ ...p, order: order++ });
  entries.forEach((entry, i) => {
    const where = `entry ${i + 1}`;
    const before = pending.length;
    try {
      browserEntry(entry, i, where);
    } catch (err) {
      // This entry broke its reading: what it added goes, and it is kept as one note.
      pending.length = before;
      const why = `could not be read (${err instanceof Error ? err.name : "error"})`;
      add({
        ts: 0,
        connKey: "",
        transport: "",
        peer: "",
        emit: (b, ts) => b.unreadable(ts, where, why, entry),
      });
    }
  });
  /** One entry: its frames, or a note, added to `pending`; skipped when it carries no ACP frames. */
  function browserEntry(entry: unknown, i: number, where: string): void {
    const e = asJsonObject(entry);
    if (!e) {
      add({
        ts: 0,
        connKey: "",
        transport: "",
        peer: "",
        emit: (b, ts) => b.unreadable(ts, where, "not an object", entry),
      });
      return;
    }
    const req = asJsonObject(e.request);
    const res = asJsonObject(e.response);
    const url = typeof req?.url === "string" ? req.url : "";
    const started = typeof e.startedDateTime === "string" ? Date.parse(e.startedDateTime) : Number.NaN;
    const start = Number.isNaN(started) ? 0 : started;
    const ws = e._webSocketMessages;
    if (Array.isArray(ws)) {
      const connKey = `ws ${i}`;
      ws.forEach((raw, j) => {
        const at = `${where} message ${j + 1}`;
        const m = asJsonObject(raw);
        const time = typeof m?.time === "number" && Number.isFinite(m.time) ? m.time * 1000 : start;
        const base = { ts: time, connKey, transport: "ws", peer: url };
        const dir = m?.type === "send" ? "client->agent" : m?.type === "receive" ? "agent->client" : null;
        const opcode = m?.opcode ?? 1;
        if (!m || !dir || typeof m.data !== "string") {
          add({
            ...base,
            emit: (b, ts) => b.unreadable(ts, at, "not a WebSocket message with type and data", raw),
          });
        } else if (opcode === 1) {
          const data = m.data;
          add({ ...base, emit: (b, ts, conn) => b.frame(ts, conn, dir, data) });
        } else if (opcode === 2) {
          const bytes = base64Bytes(m.data);
          const data = m.data;
          add({
            ...base,
            emit: (b, ts, conn) =>
              bytes
                ? b.frameBytes(ts, conn, dir, bytes)
                : b.unreadable(ts, at, "binary frame data is not base64", data),
          });
        } else {
          const what =
            opcode === 8
              ? "close"
              : opcode === 9
                ? "ping"
                : opcode === 10
                  ? "pong"
                  : `opcode ${safeJson(opcode).slice(0, 40)}`;
          add({
            ...base,
            emit: (b, ts) =>
              b.push({
                type: "note",
                ts,
                level: "info",
                text: `WebSocket ${what} frame (${dir}): ${safeJson(m.data)}`,
              }),
          });
        }
      });
      return;
    }
    const post = asJsonObject(req?.postData);
    const content = asJsonObject(res?.content);
    const mime = `${typeof content?.mimeType === "string" ? content.mimeType : ""}`.toLowerCase();
    const connId =
      headerValue(req?.headers, "acp-connection-id") ?? headerValue(res?.headers, "acp-connection-id");
    const postText = typeof post?.text === "string" ? post.text : undefined;
    const jsonRpcBody = postText !== undefined && /"jsonrpc"\s*:/.test(postText);
    const isAcp = connId !== undefined || jsonRpcBody || mime.includes("text/event-stream");
    if (!isAcp) {
      skipped++;
      return;
    }
    httpFrames = true;
    const connKey = `http ${connId ?? url}`;
    const base = { connKey, transport: "http", peer: url };
    if (postText !== undefined && postText !== "") {
      add({ ...base, ts: start, emit: (b, ts, conn) => b.frame(ts, conn, "client->agent", postText) });
    } else if (req?.method === "POST") {
      add({
        ...base,
        ts: start,
        emit: (b, ts) => b.unreadable(ts, where, "POST without its body (saved without content?)", url),
      });
    }
    const end = start + (typeof e.time === "number" && Number.isFinite(e.time) ? e.time : 0);
    let body = typeof content?.text === "string" ? content.text : undefined;
    if (body !== undefined && content?.encoding === "base64") {
      const bytes = base64Bytes(body);
      body = (bytes && utf8Decode(bytes)) ?? body;
    }
    if (body === undefined || body === "") return;
    const texts = mime.includes("text/event-stream") ? sseEvents(body) : [body];
    for (const text of texts)
      add({ ...base, ts: end, emit: (b, ts, conn) => b.frame(ts, conn, "agent->client", text) });
  }
  pending.sort((a, b) => a.ts - b.ts || a.order - b.order);
  const b = new RecordBuilder();
  const conns = new Map<string, number>();
  let lastTs = 0;
  for (const p of pending) {
    const ts = Math.max(lastTs, p.ts);
    lastTs = ts;
    let conn = conns.get(p.connKey);
    if (conn === undefined && p.connKey !== "") {
      conn = conns.size + 1;
      conns.set(p.connKey, conn);
      b.push({ type: "conn-open", ts, conn, transport: p.transport, ...(p.peer ? { peer: p.peer } : {}) });
    }
    convertEntry(b, ts, "HAR entry", null, () => p.emit(b, ts, conn ?? 0));
  }
  if (skipped > 0)
    b.push({
      type: "note",
      ts: lastTs,
      level: "info",
      text: `left out ${skipped} HAR entries that carry no ACP frames`,
    });
  const transports = [...new Set(pending.map((p) => p.transport).filter((t) => t !== ""))].join("+");
  const firstTs = pending.find((p) => p.connKey !== "")?.ts ?? 0;
  return b.done({ format: HAR, lacks: httpFrames ? ["event-times"] : [] }, isoTime(firstTs), {
    ...(transports ? { transport: transports } : {}),
    name: "HAR capture",
  });
}

/** The metadata of one frame in our export. */
function frameMeta(f: FrameRecord, wrapped = false): FrameMeta {
  return {
    seq: f.seq,
    ts: f.ts,
    conn: f.conn,
    dir: f.dir,
    ...(f.encoding ? { encoding: f.encoding } : {}),
    ...(wrapped ? { wrapped: true as const } : {}),
    ...(f.flags ? { flags: f.flags } : {}),
    ...(f.bytes !== undefined ? { bytes: f.bytes } : {}),
    ...(f.dropped ? { dropped: f.dropped } : {}),
    ...(f.held ? { held: f.held } : {}),
    ...(f.origin ? { origin: f.origin } : {}),
    ...(f.replaces !== undefined ? { replaces: f.replaces } : {}),
    ...(f.copyOf !== undefined ? { copyOf: f.copyOf } : {}),
  };
}

const TOOL = { name: "acp-retry-inspector", version: "1" };

/** Writes a trace as a HAR document: WebSocket entries (`_webSocketMessages`) or Streamable HTTP entries. */
export function traceToHar(header: TraceHeader, records: readonly TraceRecord[], style: HarStyle): Json {
  const frames = records.filter((r): r is FrameRecord => r.type === "frame");
  const others = records.filter((r) => r.type !== "frame");
  const conns = [...new Set(frames.map((f) => f.conn))];
  const entries: Json[] = [];
  const url = (conn: number) => `${style === "websocket" ? "ws" : "http"}://127.0.0.1/acp#conn-${conn}`;
  for (const conn of conns) {
    const mine = frames.filter((f) => f.conn === conn);
    if (style === "websocket") {
      entries.push({
        startedDateTime: isoTime(mine[0]?.ts ?? 0),
        time: 0,
        request: {
          method: "GET",
          url: url(conn),
          httpVersion: "HTTP/1.1",
          headers: [],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 101,
          statusText: "Switching Protocols",
          httpVersion: "HTTP/1.1",
          headers: [{ name: "Acp-Connection-Id", value: String(conn) }],
          cookies: [],
          content: { size: 0, mimeType: "x-unknown" },
          redirectURL: "",
          headersSize: -1,
          bodySize: 0,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        _resourceType: "websocket",
        _webSocketMessages: mine.map((f) => ({
          type: f.dir === "client->agent" ? "send" : "receive",
          time: f.ts / 1000,
          opcode: f.encoding === "base64" ? 2 : 1,
          data: f.raw,
          _acpRetryInspector: frameMeta(f),
        })),
      });
      continue;
    }
    // Streamable HTTP: each client frame is a POST; the agent frames after it ride its SSE response.
    let current: { start: number; end: number; post?: FrameRecord; answers: FrameRecord[] } | null = null;
    const flush = () => {
      if (!current) return;
      const c = current;
      const all = [...(c.post ? [c.post] : []), ...c.answers];
      // A base64 record is already one safe line; text with CR or LF is wrapped in base64 too.
      const wrap = (f: FrameRecord) => f.encoding !== "base64" && /[\r\n]/.test(f.raw);
      const text = (f: FrameRecord) => (wrap(f) ? bytesBase64(utf8Encode(f.raw)) : f.raw);
      const sse = c.answers.map((f) => `data: ${text(f)}\n\n`).join("");
      const headers = [{ name: "Acp-Connection-Id", value: String(conn) }];
      entries.push({
        startedDateTime: isoTime(c.start),
        time: Math.max(0, c.end - c.start),
        request: {
          method: c.post ? "POST" : "GET",
          url: url(conn),
          httpVersion: "HTTP/1.1",
          headers: [...headers, { name: "Accept", value: "application/json, text/event-stream" }],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: c.post ? c.post.raw.length : 0,
          ...(c.post ? { postData: { mimeType: "application/json", text: text(c.post) } } : {}),
        },
        response: {
          status: 200,
          statusText: "OK",
          httpVersion: "HTTP/1.1",
          headers,
          cookies: [],
          content: { size: sse.length, mimeType: "text/event-stream", text: sse },
          redirectURL: "",
          headersSize: -1,
          bodySize: sse.length,
        },
        cache: {},
        timings: { send: 0, wait: Math.max(0, c.end - c.start), receive: 0 },
        _acpRetryInspector: { conn, frames: all.map((f) => frameMeta(f, wrap(f))) },
      });
      current = null;
    };
    for (const f of mine) {
      if (f.dir === "client->agent" || !current) {
        flush();
        current = { start: f.ts, end: f.ts, answers: [] };
        if (f.dir === "client->agent") {
          current.post = f;
          continue;
        }
      }
      current.answers.push(f);
      current.end = f.ts;
    }
    flush();
  }
  return {
    log: {
      version: "1.2",
      creator: TOOL,
      entries,
      _acpRetryInspector: { header, records: others },
    },
  };
}
