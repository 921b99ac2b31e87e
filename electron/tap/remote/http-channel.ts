import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { parseJsonObject } from "../../../shared/protocol/json-object.js";
import type { ClientChannel } from "./client-channel.js";

/** Agent output a connection holds for streams its client has not opened (yet), before it gives up on the client. */
export const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
/** Seconds between SSE keep-alive comments. */
const KEEP_ALIVE_MS = 15_000;
/** The stream key of the connection-level SSE stream (session streams use their session id). */
const CONNECTION_STREAM = "";

interface SseStream {
  res: ServerResponse | null;
  queue: string[];
}

/** A JSON-RPC id as a map key (`1` and `"1"` differ). */
export function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `s:${id}`;
  if (typeof id === "number") return `n:${id}`;
  if (id === null) return "null";
  return undefined;
}

function sessionOf(params: unknown): string | undefined {
  if (params === null || typeof params !== "object") return undefined;
  const s = (params as Record<string, unknown>).sessionId;
  return typeof s === "string" ? s : undefined;
}

/**
 * One Streamable HTTP connection (`Acp-Connection-Id`): the agent's lines go out as SSE events on
 * the connection stream or on a session stream (`Acp-Session-Id`), routed the way the SDK's
 * server does: a response follows the request it answers, a request or notification with
 * `params.sessionId` goes to that session's stream, anything else to the connection stream. The
 * answer to `initialize` is the body of the initialize POST instead. Lines are sent exactly as the
 * agent wrote them (`data: <line>`).
 */
export class HttpChannel implements ClientChannel {
  readonly transport = "http" as const;
  readonly id = randomUUID();
  private readonly streams = new Map<string, SseStream>();
  private readonly routes = new Map<string, string>();
  private queuedBytes = 0;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  private initialize: { key: string; resolve: (line: string | null) => void } | null = null;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(readonly peer: string) {
    this.keepAlive = setInterval(() => {
      for (const s of this.streams.values()) s.res?.write(":\n\n");
    }, KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  /** True once closed (by the client's DELETE, a fault, or the agent's end). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves with the agent's exact answer to the initialize request `id`, or null when the connection closed first. */
  awaitInitialize(id: unknown): Promise<string | null> {
    const key = idKey(id) ?? "null";
    return new Promise((resolve) => {
      this.initialize = { key, resolve };
    });
  }

  /** Remembers where the answer to a client request goes (its session stream, or the connection stream). */
  noteClientMessage(message: Record<string, unknown> | null, sessionHeader: string | undefined): void {
    if (!message || typeof message.method !== "string" || !("id" in message)) return;
    const key = idKey(message.id);
    if (key === undefined) return;
    const stream =
      message.method === "session/load"
        ? CONNECTION_STREAM
        : (sessionHeader ?? sessionOf(message.params) ?? "");
    this.routes.set(key, stream);
  }

  /** Attaches an SSE response to a stream; false when that stream already has a receiver (409). */
  attach(sessionId: string | undefined, res: ServerResponse): boolean {
    const key = sessionId ?? CONNECTION_STREAM;
    const stream = this.stream(key);
    if (stream.res) return false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
    });
    res.flushHeaders();
    stream.res = res;
    for (const line of stream.queue.splice(0)) {
      this.queuedBytes -= line.length;
      res.write(`data: ${line}\n\n`);
    }
    res.on("close", () => {
      if (stream.res === res) stream.res = null;
    });
    return true;
  }

  send(line: string): void {
    if (this.closed) return;
    const message = parseJsonObject(line);
    let target = CONNECTION_STREAM;
    if (message) {
      if (typeof message.method === "string") {
        target = sessionOf(message.params) ?? CONNECTION_STREAM;
      } else if ("id" in message) {
        const key = idKey(message.id);
        if (this.initialize && key === this.initialize.key) {
          const { resolve } = this.initialize;
          this.initialize = null;
          resolve(line);
          return;
        }
        if (key !== undefined) {
          target = this.routes.get(key) ?? CONNECTION_STREAM;
          this.routes.delete(key);
        }
      }
    }
    const stream = this.stream(target);
    if (stream.res) {
      stream.res.write(`data: ${line}\n\n`);
      return;
    }
    stream.queue.push(line);
    this.queuedBytes += line.length;
    if (this.queuedBytes > MAX_QUEUED_BYTES) this.close();
  }

  /** Calls `fn` once the channel closes. */
  onClose(fn: () => void): void {
    if (this.closed) fn();
    else this.closeListeners.push(fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.initialize?.resolve(null);
    this.initialize = null;
    for (const s of this.streams.values()) s.res?.end();
    this.streams.clear();
    for (const fn of this.closeListeners.splice(0)) fn();
  }

  private stream(key: string): SseStream {
    let s = this.streams.get(key);
    if (!s) {
      s = { res: null, queue: [] };
      this.streams.set(key, s);
    }
    return s;
  }
}
