/** What the demo agent's method handlers (`v1-methods.ts`, `v2-methods.ts`) may do with their connection. */
import type { DemoAgent } from "./demo-agent.js";
import type { HeldPrompt } from "./held-prompt.js";
import type { HostedSession } from "./hosted-session.js";
import type { SessionUpdate } from "./turn-script.js";

/** A prompt request still waiting for its answer, for `$/cancel_request`. */
export interface PendingPrompt {
  readonly session: HostedSession;
  readonly key?: string;
  /** The held prompt this request sent (not set for a retry waiting on another request's prompt). */
  readonly held?: HeldPrompt;
}

/** What method handlers may do with their connection. */
export interface ConnectionScope {
  readonly agent: DemoAgent;
  /** Starts sending the session's live updates to this connection. */
  attach(session: HostedSession): void;
  /** Stops sending them (the session is no longer active on this connection). */
  detach(session: HostedSession): void;
  /** Sends one update to this connection only (replay, snapshots). */
  sendUpdate(sessionId: string, update: SessionUpdate): void;
  /** Sends one update already in this connection's protocol shape (a v1 `session/load` replay). */
  sendShaped(sessionId: string, update: Record<string, unknown>): void;
  /** Runs `work` with request `id` registered as a pending prompt. */
  trackPrompt<T>(id: unknown, pending: PendingPrompt, work: Promise<T>): Promise<T>;
  /** Looks up a pending prompt by its JSON-RPC id. */
  pendingPrompt(id: unknown): PendingPrompt | undefined;
}
