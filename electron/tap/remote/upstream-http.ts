/**
 * The Streamable HTTP side of an upstream connection, as a raw client so the trace keeps the
 * agent's exact text: each client message is one `POST` (its exact bytes as the body, in order);
 * `initialize` opens the connection (`Acp-Connection-Id` from its `200`, whose body is the answer);
 * the agent's messages arrive as SSE events on `GET` streams, the connection's and one per session
 * (opened before the first message for a session, and as soon as an answer names a new session,
 * as the SDK's client does). Session messages carry `Acp-Session-Id`, answers to the agent's
 * session requests too. Any HTTP error ends the connection with the status in the reason: the
 * front records what the agent sent and never makes up an answer.
 */

import { parseJsonObject } from "../../../shared/protocol/json-object.js";
import { MAX_FRAME_BYTES } from "../frames/frame-evidence.js";
import { idKey } from "./http-channel.js";
import { SseLimitError, sseEventData } from "./sse-events.js";
import {
  type UpstreamChannel,
  type UpstreamEvents,
  type UpstreamRefusal,
  type UpstreamTarget,
  unauthorizedReason,
  upstreamAuthHeaders,
} from "./upstream-channel.js";

const CONNECTION_ID = "Acp-Connection-Id";
const SESSION_ID = "Acp-Session-Id";
const JSON_TYPE = "application/json";
/** The key of the connection stream in `streams` (session streams use their session id). */
const CONNECTION_STREAM = "";
/** How long `close()` lets messages already sent finish their POST. */
const DRAIN_MS = 2_000;
/** How long the closing `DELETE` may take. */
const DELETE_MS = 2_000;
/** How much of an HTTP error body goes into the reason. */
const ERROR_BODY_CHARS = 200;

/** A failure with a reason ready for the trace (`refusal` when the agent refused the connection). */
class UpstreamError extends Error {
  constructor(
    message: string,
    readonly refusal?: UpstreamRefusal,
  ) {
    super(message);
  }
}

function stringField(value: unknown, name: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = (value as Record<string, unknown>)[name];
  return typeof v === "string" ? v : undefined;
}

/** A response body as text, at most `max` characters (throws past it, or cuts it with `cut`). */
async function bodyText(res: Response, max: number, cut = false): Promise<string> {
  if (!res.body) return "";
  const decoder = new TextDecoder("utf-8");
  const reader = res.body.getReader();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      text += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text.length > max) {
        void reader.cancel().catch(() => undefined);
        if (cut) return text.slice(0, max);
        throw new UpstreamError(`the agent sent a response body longer than ${max} characters`);
      }
      if (done) return text;
    }
  } finally {
    reader.releaseLock();
  }
}

async function httpProblem(what: string, res: Response): Promise<string> {
  const body = (await bodyText(res, ERROR_BODY_CHARS, true).catch(() => "")).replace(/\s+/g, " ").trim();
  return `the agent answered ${what} with HTTP ${res.status}${body ? `: ${body}` : ""}`;
}

/** An upstream Streamable HTTP connection to an `http(s)://` agent. */
export class HttpUpstream implements UpstreamChannel {
  private readonly abort = new AbortController();
  private connectionId: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Open (or opening) SSE streams: resolves once the agent accepted the `GET`. */
  private readonly streams = new Map<string, Promise<void>>();
  /** Which session stream each agent request came on, by its id: its answer goes to that session. */
  private readonly routes = new Map<string, string>();
  private closing = false;
  private ended = false;

  private readonly url: string;

  constructor(
    private readonly target: UpstreamTarget,
    private readonly events: UpstreamEvents,
  ) {
    this.url = target.url;
  }

  send(line: string): void {
    if (this.closing || this.ended) return;
    this.chain = this.chain.then(() => this.post(line)).catch((err: unknown) => this.fail(err));
  }

  close(): void {
    if (this.closing) return;
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([this.chain, new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]).then(
      () => {
        clearTimeout(timer);
        this.end("client closed the connection");
      },
    );
  }

  private async post(line: string): Promise<void> {
    if (this.ended) return;
    if (this.connectionId === undefined) return this.initialize(line);
    const session = this.sessionFor(parseJsonObject(line));
    if (session !== undefined) await this.openStream(session);
    const res = await this.request(
      "POST",
      {
        "Content-Type": JSON_TYPE,
        [CONNECTION_ID]: this.connectionId,
        ...(session !== undefined && { [SESSION_ID]: session }),
      },
      line,
    );
    if (!res.ok) throw new UpstreamError(await httpProblem("a POST", res));
    await res.body?.cancel().catch(() => undefined);
  }

  /** The first message: the agent's answer is the response body, with the connection's id. */
  private async initialize(line: string): Promise<void> {
    const res = await this.request("POST", { "Content-Type": JSON_TYPE }, line);
    const id = res.headers.get(CONNECTION_ID);
    if (!res.ok) {
      const type = res.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
      if (type !== JSON_TYPE) throw new UpstreamError(await httpProblem("the first POST", res));
      // A JSON-RPC error in the body (the SDK's `Initialize failed`) is the agent's answer: pass it on.
      const text = await bodyText(res, MAX_FRAME_BYTES);
      if (parseJsonObject(text)) this.deliver(text.replace(/\r?\n$/, ""), undefined);
      throw new UpstreamError(`the agent answered the first POST with HTTP ${res.status}`);
    }
    const text = (await bodyText(res, MAX_FRAME_BYTES)).replace(/\r?\n$/, "");
    if (text !== "") this.deliver(text, undefined);
    if (!id) throw new UpstreamError(`the agent's answer to the first POST has no ${CONNECTION_ID}`);
    this.connectionId = id;
    await this.openStream(undefined);
  }

  /** The session a client message belongs to: its `params.sessionId`, or (an answer) the session its request came on. */
  private sessionFor(message: Record<string, unknown> | null): string | undefined {
    if (!message) return undefined;
    if (typeof message.method === "string") return stringField(message.params, "sessionId");
    const key = idKey(message.id);
    if (key === undefined) return undefined;
    const session = this.routes.get(key);
    this.routes.delete(key);
    return session;
  }

  /** Opens the connection stream (`undefined`) or a session's, once; a failed open is retried next time. */
  private openStream(session: string | undefined): Promise<void> {
    const key = session ?? CONNECTION_STREAM;
    let opened = this.streams.get(key);
    if (!opened) {
      const started = this.startStream(session);
      opened = started;
      this.streams.set(key, started);
      started.catch(() => {
        if (this.streams.get(key) === started) this.streams.delete(key);
      });
    }
    return opened;
  }

  private async startStream(session: string | undefined): Promise<void> {
    const res = await this.request("GET", {
      Accept: "text/event-stream",
      [CONNECTION_ID]: this.connectionId ?? "",
      ...(session !== undefined && { [SESSION_ID]: session }),
    });
    const which = session === undefined ? "the connection stream" : `the stream of session ${session}`;
    if (!res.ok || !res.body) throw new UpstreamError(await httpProblem(`the GET of ${which}`, res));
    void this.read(res.body, session);
  }

  /** Delivers a stream's events; the end of the connection stream ends the connection. */
  private async read(body: ReadableStream<Uint8Array>, session: string | undefined): Promise<void> {
    let why = "agent closed the connection";
    try {
      for await (const data of sseEventData(body, MAX_FRAME_BYTES)) this.deliver(data, session);
    } catch (err) {
      if (err instanceof SseLimitError) why = `the agent sent ${err.message}`;
    }
    if (this.ended) return;
    const key = session ?? CONNECTION_STREAM;
    this.streams.delete(key);
    if (session === undefined || why !== "agent closed the connection") this.end(why);
  }

  private deliver(text: string, session: string | undefined): void {
    if (this.ended) return;
    const message = parseJsonObject(text);
    if (message) {
      if (session !== undefined && typeof message.method === "string" && "id" in message) {
        const key = idKey(message.id);
        if (key !== undefined) this.routes.set(key, session);
      }
      const created = "result" in message ? stringField(message.result, "sessionId") : undefined;
      if (created !== undefined && this.connectionId !== undefined)
        void this.openStream(created).catch(() => undefined);
    }
    this.events.message(Buffer.from(text, "utf8"));
  }

  /** One request with the token; a 401 ends the connection as a refusal ("wants a token"), whatever the request. */
  private async request(method: string, headers: Record<string, string>, body?: string): Promise<Response> {
    const res = await fetch(this.url, {
      method,
      headers: { ...upstreamAuthHeaders(this.target), ...headers },
      body,
      signal: this.abort.signal,
    });
    if (res.status === 401) {
      await res.body?.cancel().catch(() => undefined);
      throw new UpstreamError(unauthorizedReason(this.target), "unauthorized");
    }
    return res;
  }

  private fail(err: unknown): void {
    if (this.ended) return;
    if (err instanceof UpstreamError) {
      this.end(err.message, err.refusal);
      return;
    }
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
    const message = cause ?? (err instanceof Error ? err.message : String(err));
    this.end(`cannot reach the agent at ${this.url}: ${message}`);
  }

  private end(reason: string, refusal?: UpstreamRefusal): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort();
    const id = this.connectionId;
    if (id !== undefined)
      void fetch(this.url, {
        method: "DELETE",
        headers: { ...upstreamAuthHeaders(this.target), [CONNECTION_ID]: id },
        signal: AbortSignal.timeout(DELETE_MS),
      })
        .then((res) => res.body?.cancel())
        .catch(() => undefined);
    this.events.closed(reason, refusal);
  }
}
