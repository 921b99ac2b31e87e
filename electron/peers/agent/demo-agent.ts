/**
 * The demo agent's state shared by all its connections: the store, the key policy of its mode,
 * and the sessions loaded in memory. One `DemoAgent` serves stdio or any number of remote
 * connections; each connection is an `AgentConnection`.
 */

import { randomUUID } from "node:crypto";
import { type AgentMode, type ModePolicy, modePolicy } from "./agent-mode.js";
import { HostedSession, promptText } from "./hosted-session.js";
import type { SessionRecord } from "./session-record.js";
import { SessionStore } from "./session-store.js";
import { NO_TURN_TELEMETRY, type TurnTelemetry } from "./turn-telemetry.js";
import type { UserMessageShape } from "./user-message-shape.js";

/** Options of a `DemoAgent`. */
export interface DemoAgentOptions {
  /** Folder of the session store. */
  readonly storeDir: string;
  readonly mode: AgentMode;
  /** Duration of a turn's visible work, ms. */
  readonly turnMs: number;
  /** Fail this many inserts with -32603 (a transient storage error) before inserting normally. */
  readonly failInserts?: number;
  /** Kill this process with SIGKILL right after its Nth insert is flushed, before answering (crash QA). */
  readonly crashAfterInserts?: number;
  /** How inserts are announced: one `user_message` (default) or `user_message_chunk`s only. */
  readonly userMessages?: UserMessageShape;
  /** Spans of its own work (`--otel`); none by default. */
  readonly telemetry?: TurnTelemetry;
}

/** A session as `session/list` shows it (no keys). */
export interface SessionSummary {
  readonly sessionId: string;
  readonly cwd: string;
  readonly title: string | null;
  readonly updatedAt: string;
}

/** The demo agent: sessions, store and key policy. */
export class DemoAgent {
  readonly store: SessionStore;
  readonly policy: ModePolicy;
  /** Where its turn spans go (`--otel`), or nowhere. */
  readonly telemetry: TurnTelemetry;
  private readonly live = new Map<string, Promise<HostedSession | undefined>>();
  private failuresLeft: number;
  private inserts = 0;

  constructor(readonly options: DemoAgentOptions) {
    this.store = new SessionStore(options.storeDir);
    this.policy = modePolicy(options.mode, this.store);
    this.failuresLeft = options.failInserts ?? 0;
    this.telemetry = options.telemetry ?? NO_TURN_TELEMETRY;
  }

  /** Creates and stores a new, empty session. */
  newSession(cwd: string, forkOf?: string, history: readonly SessionRecord[] = []): HostedSession {
    const header = {
      t: "session" as const,
      sessionId: randomUUID(),
      cwd,
      createdAt: new Date().toISOString(),
      forkOf,
    };
    this.store.create(header, history);
    const session = new HostedSession(header, history, this.liveDeps());
    this.live.set(header.sessionId, Promise.resolve(session));
    return session;
  }

  /** The live session `sessionId`, loaded from the store on first use; `undefined` if there is none. */
  session(sessionId: unknown): Promise<HostedSession | undefined> {
    if (!SessionStore.isSessionId(sessionId)) return Promise.resolve(undefined);
    let session = this.live.get(sessionId);
    if (!session) {
      const stored = this.store.read(sessionId);
      session = Promise.resolve(
        stored ? new HostedSession(stored.header, stored.records, this.liveDeps()) : undefined,
      );
      this.live.set(sessionId, session);
      // A session that does not exist (yet) is looked up again next time.
      void session.then((s) => {
        if (!s) this.live.delete(sessionId);
      });
    }
    return session;
  }

  /**
   * Forks `source` into a new session holding a copy of its completed turns. Keys are not copied:
   * the same key in the fork names an unrelated submission (RFD, "How long a key lasts").
   */
  async fork(source: HostedSession, cwd: string): Promise<HostedSession> {
    const stored = this.store.read(source.id);
    const records = stored?.records ?? [];
    let end = records.length;
    while (end > 0 && records[end - 1]?.t !== "agent") end--;
    const history = records.slice(1, end).map((r): SessionRecord => {
      if (r.t !== "user") return r;
      const { key: _key, ...withoutKey } = r;
      return withoutKey;
    });
    return this.newSession(cwd, source.id, history);
  }

  /** Every stored session, newest first, optionally only those in `cwd`. */
  async list(cwd?: string): Promise<SessionSummary[]> {
    const out: SessionSummary[] = [];
    for (const id of this.store.ids()) {
      const stored = this.store.peek(id);
      if (!stored || (cwd !== undefined && stored.header.cwd !== cwd)) continue;
      const firstPrompt = stored.records.find((r) => r.t === "user");
      const title = firstPrompt?.t === "user" ? promptText(firstPrompt.content).slice(0, 80) : null;
      out.push({ sessionId: id, cwd: stored.header.cwd, title, updatedAt: stored.updatedAt });
    }
    return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }

  /** Deletes a session: cancels its work, forgets its keys, removes its file. A missing session is fine. */
  async delete(sessionId: string): Promise<void> {
    const session = await this.session(sessionId);
    await session?.cancel();
    this.live.delete(sessionId);
    this.policy.ledger?.forgetSession(sessionId);
    await this.store.delete(sessionId);
  }

  private liveDeps() {
    return {
      store: this.store,
      policy: this.policy,
      turnMs: this.options.turnMs,
      userMessages: this.options.userMessages,
      afterInsert: () => {
        this.inserts++;
        if (this.inserts === this.options.crashAfterInserts) process.kill(process.pid, "SIGKILL");
      },
      failNextInsert: () => {
        if (this.failuresLeft <= 0) return false;
        this.failuresLeft--;
        return true;
      },
    };
  }
}
