/**
 * What one prompt turn of the demo agent does, step by step: visible, deterministic work with one
 * side effect ("deploy #N") that is recorded durably and never repeated for the same message.
 */

import { randomUUID } from "node:crypto";

/** A v2 `session/update` payload (the `update` field). */
export type SessionUpdate = Record<string, unknown> & { readonly sessionUpdate: string };

/** Everything a turn needs from its session. */
export interface TurnContext {
  /** The user message this turn answers. */
  readonly userMessageId: string;
  /** The prompt's text (text blocks joined). */
  readonly promptText: string;
  /** Total duration of the visible work, ms. */
  readonly turnMs: number;
  /** The deploy number already recorded for this message (a turn continued after a crash), if any. */
  readonly recordedDeploy?: number;
  readonly signal: AbortSignal;
  emit(update: SessionUpdate): void;
  /** Durably records the side effect and returns its deploy number. */
  recordEffect(): number;
  /** Durably records the reply that ends the turn. */
  recordReply(agentMessageId: string, text: string, stopReason: string): void;
}

/** The title of the tool call that stands for deploy number `n`. */
export function deployTitle(n: number): string {
  return `deploy #${n}`;
}

/** The `tool_call_update` for deploy number `n`. */
export function deployUpdate(n: number): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: `deploy-${n}`,
    title: deployTitle(n),
    kind: "execute",
    status: "completed",
  };
}

function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs one turn; resolves to its stop reason (`end_turn`, or `cancelled` when `signal` aborts). */
export async function runTurn(ctx: TurnContext): Promise<string> {
  const agentMessageId = randomUUID();
  const step = Math.max(1, Math.round(ctx.turnMs / 4));
  const said: string[] = [];
  const say = (text: string) => {
    said.push(text);
    ctx.emit({
      sessionUpdate: "agent_message_chunk",
      messageId: agentMessageId,
      content: { type: "text", text },
    });
  };
  const finish = (stopReason: string) => {
    ctx.recordReply(agentMessageId, said.join(""), stopReason);
    ctx.emit({ sessionUpdate: "state_update", state: "idle", stopReason });
    return stopReason;
  };

  ctx.emit({ sessionUpdate: "state_update", state: "running" });
  const preview = ctx.promptText.length > 60 ? `${ctx.promptText.slice(0, 57)}...` : ctx.promptText;
  for (const text of [`Working on "${preview}". `, "Building. ", "Deploying. "]) {
    if (!(await pause(step, ctx.signal))) return finish("cancelled");
    say(text);
  }
  if (!(await pause(step, ctx.signal))) return finish("cancelled");
  const deploy = ctx.recordedDeploy ?? ctx.recordEffect();
  ctx.emit(deployUpdate(deploy));
  say(`Done: ${deployTitle(deploy)}.`);
  return finish("end_turn");
}
