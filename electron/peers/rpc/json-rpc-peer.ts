/**
 * A small JSON-RPC 2.0 peer over the SDK's message `Stream` (stdio via `ndJsonStream`, or one
 * connection of the SDK's remote server/client transports). Both reference peers use it instead
 * of the SDK's typed apps because they need the raw params (the typed v2 handler strips
 * `idempotencyKey`) and per-request control: a held prompt is answered whenever it is inserted.
 */

import type { AnyMessage, JsonRpcId, Stream } from "@agentclientprotocol/sdk/experimental/v2";

/** A JSON-RPC error to send as a response (or received as one). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The connection ended before a response arrived. */
export class ConnectionClosedError extends Error {
  constructor(reason = "connection closed") {
    super(reason);
  }
}

/** A request received from the other side. */
export interface IncomingRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: unknown;
}

/** What a peer does with incoming messages. */
export interface RpcHandlers {
  /** Resolves to the result, or rejects with an `RpcError` (anything else becomes -32603). */
  onRequest?(request: IncomingRequest): Promise<unknown> | unknown;
  onNotification?(method: string, params: unknown): void;
}

/** An outgoing request: its id and its eventual result. */
export interface SentRequest {
  readonly id: number;
  readonly result: Promise<unknown>;
}

type Waiter = { resolve(value: unknown): void; reject(error: Error): void };

/** One side of one JSON-RPC connection. */
export class JsonRpcPeer {
  private readonly writer: WritableStreamDefaultWriter<AnyMessage>;
  private readonly waiting = new Map<string, Waiter>();
  private nextId = 1;
  private isClosed = false;
  /** Resolves when the connection has ended (the other side closed, or `close()` was called). */
  readonly closed: Promise<void>;

  constructor(
    private readonly stream: Stream,
    private readonly handlers: RpcHandlers,
  ) {
    this.writer = stream.writable.getWriter();
    this.closed = this.readLoop();
  }

  /** Whether the connection has ended. */
  get ended(): boolean {
    return this.isClosed;
  }

  /** Sends a request with a fresh id. */
  request(method: string, params: unknown): SentRequest {
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) => {
      if (this.isClosed) {
        reject(new ConnectionClosedError());
        return;
      }
      this.waiting.set(idKey(id), { resolve, reject });
    });
    result.catch(() => undefined);
    this.send({ jsonrpc: "2.0", id, method, params } as AnyMessage);
    return { id, result };
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params } as AnyMessage);
  }

  /**
   * Ends the connection the way a careful client does: stops sending, then keeps reading until the
   * other side has closed too (at most `graceMs`), so an answer already on the wire still reaches
   * its waiter; then ends like `close()`.
   */
  async end(graceMs: number): Promise<void> {
    if (this.isClosed) return;
    this.writer.close().catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.finish();
  }

  /** Ends the connection; pending outgoing requests reject with `ConnectionClosedError`. */
  close(): void {
    this.finish();
    this.writer.close().catch(() => undefined);
  }

  private send(message: AnyMessage): void {
    if (this.isClosed) return;
    // A write to a connection that just went away has nobody to tell: the read loop ends it.
    this.writer.write(message).catch(() => undefined);
  }

  private async readLoop(): Promise<void> {
    const reader = this.stream.readable.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.dispatch(value as Record<string, unknown>);
      }
    } catch {
      // A transport error ends the connection like a close does.
    } finally {
      reader.releaseLock();
      this.finish();
    }
  }

  private finish(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const waiter of this.waiting.values()) waiter.reject(new ConnectionClosedError());
    this.waiting.clear();
  }

  private dispatch(message: Record<string, unknown>): void {
    const { id, method } = message;
    if (typeof method === "string") {
      if (id === undefined) this.handlers.onNotification?.(method, message.params);
      else void this.answer({ id: id as JsonRpcId, method, params: message.params });
      return;
    }
    if (id === undefined || id === null) return;
    const waiter = this.waiting.get(idKey(id as JsonRpcId));
    if (!waiter) return;
    this.waiting.delete(idKey(id as JsonRpcId));
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error) {
      waiter.reject(new RpcError(Number(error.code), String(error.message ?? ""), error.data));
    } else {
      waiter.resolve(message.result);
    }
  }

  private async answer(request: IncomingRequest): Promise<void> {
    if (!this.handlers.onRequest) {
      this.sendError(request.id, new RpcError(-32601, `Method not found: ${request.method}`));
      return;
    }
    try {
      const result = await this.handlers.onRequest(request);
      this.send({ jsonrpc: "2.0", id: request.id, result: result ?? null } as AnyMessage);
    } catch (err) {
      this.sendError(
        request.id,
        err instanceof RpcError
          ? err
          : new RpcError(-32603, err instanceof Error ? err.message : String(err)),
      );
    }
  }

  private sendError(id: JsonRpcId, error: RpcError): void {
    const body: Record<string, unknown> = { code: error.code, message: error.message };
    if (error.data !== undefined) body.data = error.data;
    this.send({ jsonrpc: "2.0", id, error: body } as AnyMessage);
  }
}

function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n${id}` : `s${String(id)}`;
}
