/**
 * A session loaded in the demo agent: who listens to it, its held prompts and its running turn.
 * Inserting a message is one flushed store write (with the key in the same record); the response
 * goes out only after it.
 */

import { randomUUID } from "node:crypto";
import type { KeyOutcome } from "../../../shared/keys/agent-key-ledger.js";
import { CONTINUE_INTERRUPTED_TURNS, ErrorCode } from "../../../shared/keys/peer-choices.js";
import type { ModePolicy } from "./agent-mode.js";
import { type HeldPrompt, HeldPromptQueue } from "./held-prompt.js";
import type { SessionHeaderRecord, SessionRecord } from "./session-record.js";
import type { SessionStore } from "./session-store.js";
import { runTurn, type SessionUpdate } from "./turn-script.js";
import { type UserMessageShape, userMessageUpdates } from "./user-message-shape.js";

/** Receives a session's updates (one per attached connection). */
export type SessionListener = (sessionId: string, update: SessionUpdate) => void;

/** What every live session shares with the agent. */
export interface HostedSessionDeps {
  readonly store: SessionStore;
  readonly policy: ModePolicy;
  readonly turnMs: number;
  /** How inserts are announced (default: one `user_message`). */
  readonly userMessages?: UserMessageShape;
  /** Fails the next insert with -32603 when it returns true (a transient storage error, for demos and tests). */
  readonly failNextInsert: () => boolean;
  /** Called after every flushed insert, before the answer (the `--crash-after-inserts` hook). */
  readonly afterInsert?: () => void;
}

/** The text of a prompt's text blocks, joined. */
export function promptText(content: readonly unknown[]): string {
  return content
    .map((block) => (block && typeof block === "object" ? (block as { text?: unknown }).text : undefined))
    .filter((text): text is string => typeof text === "string")
    .join(" ");
}

/** A session with live state. */
export class HostedSession {
  private readonly listeners = new Set<SessionListener>();
  private readonly held = new HeldPromptQueue();
  private busy = false;
  private turn?: AbortController;
  private state: "idle" | "running" = "idle";
  private lastStopReason = "end_turn";
  private deploys: number;

  constructor(
    readonly header: SessionHeaderRecord,
    history: readonly SessionRecord[],
    private readonly deps: HostedSessionDeps,
  ) {
    this.deploys = history.filter((r) => r.t === "effect").length;
    const interrupted = findInterruptedTurn(history);
    if (interrupted && CONTINUE_INTERRUPTED_TURNS) void this.continueTurn(interrupted);
  }

  /** The session id. */
  get id(): string {
    return this.header.sessionId;
  }

  /** Starts sending this session's updates to `listener`. */
  attach(listener: SessionListener): void {
    this.listeners.add(listener);
  }

  /** Stops sending updates to `listener`. */
  detach(listener: SessionListener): void {
    this.listeners.delete(listener);
  }

  /** The `state_update` that tells a (re)attaching Client what the session is doing now. */
  snapshot(): SessionUpdate {
    return this.state === "running"
      ? { sessionUpdate: "state_update", state: "running" }
      : { sessionUpdate: "state_update", state: "idle", stopReason: this.lastStopReason };
  }

  /** Holds a prompt; it is inserted as soon as the agent is free (immediately when idle). */
  submit(prompt: HeldPrompt): void {
    this.held.push(prompt);
    void this.pump();
  }

  /**
   * Withdraws the held prompt with `key` (not inserted yet): answers it, and through the ledger
   * every retry waiting on it, with -32800. Returns whether one was held.
   */
  async withdrawKey(key: string): Promise<boolean> {
    const taken = this.held.take((p) => p.key === key);
    await this.answerWithdrawn(taken);
    return taken.length > 0;
  }

  /** Withdraws one specific held prompt (an unkeyed one whose request was cancelled). */
  async withdrawPrompt(prompt: HeldPrompt): Promise<boolean> {
    const taken = this.held.take((p) => p === prompt);
    await this.answerWithdrawn(taken);
    return taken.length > 0;
  }

  /** `session/cancel` and `session/close`: stop the running turn, answer every held prompt with -32800. */
  async cancel(): Promise<void> {
    this.turn?.abort();
    await this.answerWithdrawn(this.held.take(() => true));
  }

  private async answerWithdrawn(prompts: readonly HeldPrompt[]): Promise<void> {
    const outcome: KeyOutcome = {
      kind: "withdrawn",
      code: ErrorCode.requestCancelled,
      message: "Request cancelled",
    };
    for (const prompt of prompts) {
      prompt.settle(outcome);
      if (prompt.key !== undefined) await this.deps.policy.ledger?.withdrawn(this.id, prompt.key);
    }
  }

  private emit(update: SessionUpdate): void {
    for (const listener of this.listeners) listener(this.id, update);
  }

  private async pump(): Promise<void> {
    while (!this.busy) {
      const prompt = this.held.shift();
      if (!prompt) return;
      this.busy = true;
      try {
        if (this.insert(prompt)) await this.runTurnFor(prompt.messageId, prompt.content, undefined, prompt);
        else await this.failed(prompt);
      } finally {
        this.busy = false;
      }
    }
  }

  /** Writes the user message (and its key) in one flushed record, then answers. False when the write failed. */
  private insert(prompt: HeldPrompt): boolean {
    const { policy } = this.deps;
    try {
      if (this.deps.failNextInsert()) throw new Error("simulated storage failure (--fail-inserts)");
      this.deps.store.append(this.id, {
        t: "user",
        messageId: prompt.messageId,
        ...(policy.storesKeys && prompt.key !== undefined ? { key: prompt.key } : {}),
        content: prompt.content,
        at: new Date().toISOString(),
      });
    } catch (err) {
      process.stderr.write(
        `demo-agent: insert failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      return false;
    }
    this.deps.afterInsert?.();
    for (const update of userMessageUpdates(
      this.deps.userMessages ?? "message",
      prompt.messageId,
      prompt.content,
    ))
      this.emit(update);
    prompt.settle({ kind: "inserted", messageId: prompt.messageId });
    if (prompt.key !== undefined) void policy.ledger?.inserted(this.id, prompt.key);
    return true;
  }

  /** An insert failed: nothing was recorded, so the key stays unused and every waiting retry gets the error. */
  private async failed(prompt: HeldPrompt): Promise<void> {
    const message = "Internal error: the message could not be stored";
    prompt.settle({ kind: "withdrawn", code: ErrorCode.internalError, message });
    if (prompt.key !== undefined) {
      await this.deps.policy.ledger?.withdrawn(this.id, prompt.key, ErrorCode.internalError, message);
    }
  }

  private async continueTurn(interrupted: InterruptedTurn): Promise<void> {
    this.busy = true;
    try {
      await this.runTurnFor(interrupted.messageId, interrupted.content, interrupted.deploy);
    } finally {
      this.busy = false;
    }
    await this.pump();
  }

  private async runTurnFor(
    userMessageId: string,
    content: readonly unknown[],
    recordedDeploy: number | undefined,
    prompt?: HeldPrompt,
  ): Promise<void> {
    const turn = new AbortController();
    this.turn = turn;
    this.state = "running";
    let stopReason = "error";
    try {
      stopReason = await runTurn({
        userMessageId,
        promptText: promptText(content),
        turnMs: this.deps.turnMs,
        recordedDeploy,
        signal: turn.signal,
        emit: (update) => {
          if (update.sessionUpdate === "state_update") {
            this.state = update.state === "running" ? "running" : "idle";
            if (typeof update.stopReason === "string") this.lastStopReason = update.stopReason;
          }
          this.emit(update);
        },
        recordEffect: () => {
          const deploy = this.deploys + 1;
          this.deps.store.append(this.id, { t: "effect", messageId: userMessageId, deploy, at: now() });
          this.deploys = deploy;
          return deploy;
        },
        recordReply: (messageId, text, reason) => {
          this.deps.store.append(this.id, {
            t: "agent",
            messageId,
            replyTo: userMessageId,
            text,
            stopReason: reason,
            at: now(),
          });
        },
      });
    } catch (err) {
      process.stderr.write(`demo-agent: turn failed: ${err instanceof Error ? err.message : String(err)}\n`);
      this.state = "idle";
      this.lastStopReason = "error";
      this.emit({
        sessionUpdate: "state_update",
        state: "idle",
        stopReason: "error",
        error: { code: ErrorCode.internalError, message: "The turn failed" },
      });
    } finally {
      if (this.turn === turn) this.turn = undefined;
      prompt?.onTurnEnd?.(stopReason);
    }
  }
}

function now(): string {
  return new Date().toISOString();
}

interface InterruptedTurn {
  readonly messageId: string;
  readonly content: readonly unknown[];
  readonly deploy?: number;
}

/** The last user message when no reply to it was stored: a crash stopped its turn. */
function findInterruptedTurn(history: readonly SessionRecord[]): InterruptedTurn | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i] as SessionRecord;
    if (record.t === "agent") return undefined;
    if (record.t === "user") {
      const effect = history.slice(i).find((r) => r.t === "effect" && r.messageId === record.messageId);
      return {
        messageId: record.messageId,
        content: record.content,
        deploy: effect?.t === "effect" ? effect.deploy : undefined,
      };
    }
  }
  return undefined;
}

/** A random id for an unkeyed prompt's message. */
export function randomMessageId(): string {
  return randomUUID();
}
