/**
 * A small builder of trace records for tests, fixtures and benchmarks: seq and ts advance on every
 * record, frames are serialised with JSON.stringify. Pure: it returns records and JSONL text.
 */
import { encodeHeader, encodeRecord } from "../../trace/codec.js";
import {
  type Direction,
  type FrameRecord,
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceHeader,
  type TraceRecord,
} from "../../trace/record.js";

type Extra = { readonly dropped?: boolean };

/** A trace record without the seq and ts the script assigns. */
type Unstamped<R> = R extends TraceRecord ? Omit<R, "seq" | "ts"> : never;

/** Writes trace records one call at a time; every call advances the clock by `stepMs`. */
export class TraceScript {
  readonly records: TraceRecord[] = [];
  private seq = 0;
  private now: number;

  constructor(
    readonly startTs = 1_700_000_000_000,
    private readonly stepMs = 1,
  ) {
    this.now = startTs;
  }

  /** A header for this trace. */
  header(): TraceHeader {
    return {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool: "acp-retry-inspector test",
      startedAt: new Date(this.startTs).toISOString(),
    };
  }

  /** The trace file text: header line then one line per record. */
  jsonl(): string {
    return encodeHeader(this.header()) + this.records.map(encodeRecord).join("");
  }

  /** Moves the clock forward by `ms` without a record. */
  wait(ms: number): this {
    this.now += ms;
    return this;
  }

  private base(): { seq: number; ts: number } {
    this.seq++;
    this.now += this.stepMs;
    return { seq: this.seq, ts: this.now };
  }

  /** A `conn-open` record. */
  open(conn: number, transport = "stdio"): this {
    this.records.push({ type: "conn-open", ...this.base(), conn, transport });
    return this;
  }

  /** A `conn-close` record. */
  close(conn: number, reason = "client closed"): this {
    this.records.push({ type: "conn-close", ...this.base(), conn, reason });
    return this;
  }

  /** An `agent-spawn` record. */
  spawn(pid: number, command: readonly string[] = ["agent"]): this {
    this.records.push({ type: "agent-spawn", ...this.base(), pid, command });
    return this;
  }

  /** An `agent-exit` record. */
  exit(pid: number, code: number | null = 1, signal: string | null = null): this {
    this.records.push({ type: "agent-exit", ...this.base(), pid, code, signal });
    return this;
  }

  /** An `agent-stderr` record. */
  stderr(pid: number, text: string): this {
    this.records.push({ type: "agent-stderr", ...this.base(), pid, text });
    return this;
  }

  /** Any record (a fault, a note, a per-connection Agent, ...) with the next seq and ts. */
  record(record: Unstamped<TraceRecord>): this {
    this.records.push({ ...record, ...this.base() } as TraceRecord);
    return this;
  }

  /** A frame with exactly these bytes. */
  raw(conn: number, dir: Direction, raw: string, extra: Partial<FrameRecord> = {}): this {
    this.records.push({ type: "frame", ...this.base(), conn, dir, raw, ...extra } as FrameRecord);
    return this;
  }

  /** A frame carrying `message` serialised. */
  send(conn: number, dir: Direction, message: object, extra: Extra = {}): this {
    return this.raw(conn, dir, JSON.stringify(message), extra.dropped ? { dropped: true } : {});
  }

  /** A request in direction `dir`. */
  request(
    conn: number,
    dir: Direction,
    id: string | number,
    method: string,
    params: object,
    extra: Extra = {},
  ): this {
    return this.send(conn, dir, { jsonrpc: "2.0", id, method, params }, extra);
  }

  /** A result answering a request that travelled opposite to `dir`. */
  result(conn: number, dir: Direction, id: string | number, result: unknown, extra: Extra = {}): this {
    return this.send(conn, dir, { jsonrpc: "2.0", id, result }, extra);
  }

  /** A notification. */
  notify(conn: number, dir: Direction, method: string, params: object, extra: Extra = {}): this {
    return this.send(conn, dir, { jsonrpc: "2.0", method, params }, extra);
  }

  /** A Client `session/prompt` with one text block; `key` undefined omits the field. */
  prompt(
    conn: number,
    id: string | number,
    sessionId: string,
    text: string,
    key?: unknown,
    extra: Extra = {},
  ): this {
    const params: Record<string, unknown> = { sessionId, prompt: [{ type: "text", text }] };
    if (key !== undefined) params.idempotencyKey = key;
    return this.request(conn, "client->agent", id, "session/prompt", params, extra);
  }

  /** The Agent's v2 `{messageId}` answer to a prompt. */
  inserted(conn: number, id: string | number, messageId: string, extra: Extra = {}): this {
    return this.result(conn, "agent->client", id, { messageId }, extra);
  }

  /** An error response from the Agent. */
  error(conn: number, id: string | number | null, code: number, message = "error", extra: Extra = {}): this {
    return this.send(conn, "agent->client", { jsonrpc: "2.0", id, error: { code, message } }, extra);
  }

  /** A v2 `user_message` session update. */
  userMessage(conn: number, sessionId: string, messageId: string, text = "hi", extra: Extra = {}): this {
    return this.notify(
      conn,
      "agent->client",
      "session/update",
      { sessionId, update: { sessionUpdate: "user_message", messageId, content: [{ type: "text", text }] } },
      extra,
    );
  }

  /** A Client `$/cancel_request` for one of its requests. */
  cancelRequest(conn: number, requestId: string | number): this {
    return this.notify(conn, "client->agent", "$/cancel_request", { requestId });
  }
}
