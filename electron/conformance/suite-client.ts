/**
 * The suite's side of one connection: a raw JSON-RPC client (the peers' own `JsonRpcPeer`, so
 * invalid key values go out exactly as written) that logs every update and answer in arrival
 * order, and bounds every wait by the case's deadline.
 */

import type { Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { isUserMessageUpdate } from "../../shared/protocol/user-message-updates.js";
import { ConnectionClosedError, JsonRpcPeer, RpcError } from "../peers/rpc/json-rpc-peer.js";
import type { CaseDeadline } from "./case-deadline.js";
import { CaseFailure, CaseTimeout, type FrameRef } from "./case-outcome.js";

/** How a `session/prompt` attempt ended. */
export type PromptAnswer =
  | { readonly kind: "inserted"; readonly messageId: string }
  | { readonly kind: "error"; readonly code: number; readonly message: string }
  | { readonly kind: "closed" }
  | { readonly kind: "malformed"; readonly detail: string };

/** One `session/prompt` request sent by the suite. */
export interface PromptAttempt {
  /** The JSON-RPC id. */
  readonly id: number;
  /** Resolves (never rejects) with the answer. */
  readonly answer: Promise<PromptAnswer>;
  /** The answer once it arrived. */
  settled?: PromptAnswer;
  /** Arrival order of the answer among everything this client received (see `SuiteClient.order`). */
  settledOrder?: number;
  /** `SuiteClient.order` when the request was sent: what had arrived before it went out. */
  readonly sentOrder: number;
}

/** One `session/update` received, with its arrival order. */
export interface ReceivedUpdate {
  readonly sessionId: string;
  readonly update: Record<string, unknown>;
  readonly order: number;
  /** True when it arrived while a `session/resume` of its session was pending (replayed history). */
  readonly replayed: boolean;
}

/** Describes an answer for reasons: `messageId m-1`, `error -32602 Invalid params`, ... */
export function describeAnswer(answer: PromptAnswer | undefined): string {
  if (!answer) return "no answer";
  switch (answer.kind) {
    case "inserted":
      return `messageId ${answer.messageId}`;
    case "error":
      return `error ${answer.code} ${answer.message}`;
    case "closed":
      return "no answer (the connection closed)";
    case "malformed":
      return `a malformed answer (${answer.detail})`;
  }
}

/** A client connection of the suite. */
export class SuiteClient {
  private readonly peer: JsonRpcPeer;
  /** Every `session/update`, in arrival order. */
  readonly updates: ReceivedUpdate[] = [];
  /** The text of every message received, for the key-privacy checks. */
  readonly received: string[] = [];
  private counter = 0;
  private readonly resuming = new Map<string, number>();
  private watchers = new Set<() => void>();

  constructor(
    stream: Stream,
    private readonly deadline: CaseDeadline,
    /** Connection number within the case (1, 2, ...), for reasons. */
    readonly conn: number,
  ) {
    this.peer = new JsonRpcPeer(stream, {
      onNotification: (method, params) => {
        this.received.push(JSON.stringify({ method, params }));
        if (method === "session/update") this.onUpdate(params);
        this.wake();
      },
      onRequest: (request) => {
        this.received.push(JSON.stringify(request));
        throw new RpcError(-32601, `Method not found: ${request.method}`);
      },
    });
    void this.peer.closed.then(() => this.wake());
  }

  /** A number that grows with every message received; compares arrival times. */
  get order(): number {
    return this.counter;
  }

  /** Whether the connection has ended. */
  get ended(): boolean {
    return this.peer.ended;
  }

  /** Sends a request and waits (bounded) for its result; an error answer becomes a `CaseFailure` unless `allowError`. */
  async call(method: string, params: unknown, what = method): Promise<unknown> {
    const sent = this.peer.request(method, params);
    const frames = [{ conn: this.conn, id: sent.id }];
    try {
      return await this.deadline.within(
        this.track(sent.result),
        `the answer to ${what} on connection #${this.conn}`,
      );
    } catch (err) {
      if (err instanceof RpcError)
        throw new CaseFailure(`${what} failed: ${err.code} ${err.message}`, { frames });
      if (err instanceof ConnectionClosedError)
        throw new CaseFailure(`connection #${this.conn} closed before ${what} was answered`, { frames });
      throw withFrames(err, frames);
    }
  }

  /** `initialize` at protocol version 2; returns the result object. */
  async initialize(): Promise<Record<string, unknown>> {
    const result = await this.call("initialize", {
      protocolVersion: 2,
      info: { name: "acp-retry-inspector-conformance", version: "1" },
      capabilities: {},
    });
    return (result ?? {}) as Record<string, unknown>;
  }

  /** `session/new`; returns the session id. */
  async newSession(cwd: string): Promise<string> {
    const result = (await this.call("session/new", { cwd })) as { sessionId?: unknown } | null;
    if (typeof result?.sessionId !== "string")
      throw new CaseFailure("session/new answered without a sessionId");
    return result.sessionId;
  }

  /** `session/resume` (with `replayFrom: {type: "start"}` when `replay`); updates meanwhile count as replayed. */
  async resume(sessionId: string, cwd: string, replay = false): Promise<void> {
    this.resuming.set(sessionId, (this.resuming.get(sessionId) ?? 0) + 1);
    try {
      await this.call(
        "session/resume",
        { sessionId, cwd, ...(replay ? { replayFrom: { type: "start" } } : {}) },
        replay ? "session/resume with replay" : "session/resume",
      );
    } finally {
      this.resuming.set(sessionId, (this.resuming.get(sessionId) ?? 1) - 1);
    }
  }

  /**
   * Sends `session/prompt` with one text block. `key` is sent as given (any JSON value, `null`
   * included); pass `undefined` to omit the field.
   */
  prompt(sessionId: string, text: string, key?: unknown): PromptAttempt {
    return this.promptContent(sessionId, [{ type: "text", text }], key);
  }

  /** Sends `session/prompt` with `content` as its `prompt` member, as given (an invalid one included). */
  promptContent(sessionId: string, content: unknown, key?: unknown): PromptAttempt {
    const params: Record<string, unknown> = { sessionId, prompt: content };
    if (key !== undefined) params.idempotencyKey = key;
    const sent = this.peer.request("session/prompt", params);
    const attempt: PromptAttempt = {
      id: sent.id,
      sentOrder: this.counter,
      answer: this.track(sent.result).then(
        (result) => settle(attempt, readMessageId(result), this.counter),
        (err: unknown) =>
          settle(
            attempt,
            err instanceof RpcError
              ? { kind: "error", code: err.code, message: err.message }
              : { kind: "closed" },
            this.counter,
          ),
      ),
    };
    return attempt;
  }

  /** Waits (bounded) for the answer of `attempt`. */
  answerOf(attempt: PromptAttempt, what: string): Promise<PromptAnswer> {
    return this.deadline
      .within(attempt.answer, `the answer to ${what} (request id ${attempt.id} on connection #${this.conn})`)
      .catch((err: unknown) => {
        throw withFrames(err, [this.frame(attempt)]);
      });
  }

  /** The request frame (and answer) of `attempt`, as failure evidence. */
  frame(attempt: PromptAttempt): FrameRef {
    return { conn: this.conn, id: attempt.id };
  }

  /** Waits for `attempt`'s answer and requires a messageId; returns it. */
  async inserted(attempt: PromptAttempt, what: string): Promise<string> {
    const answer = await this.answerOf(attempt, what);
    if (answer.kind !== "inserted")
      throw new CaseFailure(`${what} was answered with ${describeAnswer(answer)}, expected a messageId`, {
        frames: [this.frame(attempt)],
      });
    return answer.messageId;
  }

  /**
   * Sends a request as an in-order marker and resolves (bounded) to the arrival order of its
   * answer, an error answer included: once it is answered, the agent had received everything sent
   * on this connection before it.
   */
  async marker(method: string, params: unknown, what: string): Promise<number> {
    const sent = this.peer.request(method, params);
    const answered = this.track(sent.result).then(
      () => this.counter,
      (err: unknown) => {
        if (err instanceof RpcError) return this.counter;
        throw err;
      },
    );
    try {
      return await this.deadline.within(answered, `the answer to ${what} on connection #${this.conn}`);
    } catch (err) {
      if (err instanceof ConnectionClosedError)
        throw new CaseFailure(`connection #${this.conn} closed before ${what} was answered`, {
          frames: [{ conn: this.conn, id: sent.id }],
        });
      throw withFrames(err, [{ conn: this.conn, id: sent.id }]);
    }
  }

  /** Sends `$/cancel_request` for the request `id`. */
  cancelRequest(id: number): void {
    this.peer.notify("$/cancel_request", { requestId: id });
  }

  /** messageIds of live (not replayed) user message updates (`user_message` or `user_message_chunk`) of `sessionId`, distinct, in arrival order. */
  userMessages(sessionId: string): string[] {
    const ids: string[] = [];
    for (const u of this.updates) {
      if (u.sessionId !== sessionId || u.replayed || !isUserMessageUpdate(u.update.sessionUpdate)) continue;
      const id = u.update.messageId;
      if (typeof id === "string" && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /** The last `state_update` state of `sessionId` received (live or replayed snapshot), if any. */
  stateOf(sessionId: string): string | undefined {
    for (let i = this.updates.length - 1; i >= 0; i--) {
      const u = this.updates[i] as ReceivedUpdate;
      if (u.sessionId === sessionId && u.update.sessionUpdate === "state_update")
        return String(u.update.state);
    }
    return undefined;
  }

  /** Whether an idle `state_update` of `sessionId` arrived after arrival order `after`. */
  idleSince(sessionId: string, after: number): boolean {
    return this.updates.some(
      (u) =>
        u.order > after &&
        u.sessionId === sessionId &&
        u.update.sessionUpdate === "state_update" &&
        u.update.state === "idle",
    );
  }

  /** Waits (bounded) until `predicate` holds; re-checked on every message received. */
  until(predicate: () => boolean, what: string, capMs?: number): Promise<void> {
    if (predicate()) return Promise.resolve();
    let watcher: () => void = () => undefined;
    const met = new Promise<void>((resolve, reject) => {
      watcher = () => {
        if (predicate()) resolve();
        else if (this.peer.ended)
          reject(new CaseFailure(`connection #${this.conn} closed while waiting for ${what}`));
      };
      this.watchers.add(watcher);
    });
    return this.deadline.within(met, what, capMs).finally(() => this.watchers.delete(watcher));
  }

  /** Waits for a live user message update (either shape) with `messageId` in `sessionId`. */
  waitUserMessage(sessionId: string, messageId: string, what: string): Promise<void> {
    return this.until(
      () => this.userMessages(sessionId).includes(messageId),
      `the user_message update of ${what} (messageId ${messageId})`,
    );
  }

  /** Ends the connection from the client side. */
  close(): void {
    this.peer.close();
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    return promise.finally(() => {
      this.counter++;
      this.wake();
    });
  }

  private onUpdate(params: unknown): void {
    this.counter++;
    const p = (params ?? {}) as { sessionId?: unknown; update?: unknown };
    if (typeof p.sessionId !== "string" || !p.update || typeof p.update !== "object") return;
    this.updates.push({
      sessionId: p.sessionId,
      update: p.update as Record<string, unknown>,
      order: this.counter,
      replayed: (this.resuming.get(p.sessionId) ?? 0) > 0,
    });
  }

  private wake(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

/** A timeout that does not name its frames yet gets `frames`; anything else is returned as it is. */
function withFrames(err: unknown, frames: readonly FrameRef[]): unknown {
  if (err instanceof CaseTimeout && !err.evidence.frames)
    return new CaseTimeout(err.message, { ...err.evidence, frames });
  return err;
}

function settle(attempt: PromptAttempt, answer: PromptAnswer, order: number): PromptAnswer {
  attempt.settled = answer;
  attempt.settledOrder = order;
  return answer;
}

function readMessageId(result: unknown): PromptAnswer {
  const id = (result as { messageId?: unknown } | null)?.messageId;
  if (typeof id === "string" && id !== "") return { kind: "inserted", messageId: id };
  return { kind: "malformed", detail: `result ${JSON.stringify(result)} has no messageId` };
}
