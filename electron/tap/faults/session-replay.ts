import type { Frame, JsonRpcId } from "../../../shared/protocol/frame.js";
import { asJsonObject } from "../../../shared/protocol/json-object.js";
import type { Direction } from "../../../shared/trace/record.js";

/** A session the client has open on this connection, with what it takes to open it again. */
export interface OpenSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly mcpServers?: unknown;
}

/** One request the tap sends a restarted agent to give it back a session the client has open. */
export interface SessionRestore {
  readonly sessionId: string;
  readonly method: "session/resume" | "session/load";
  readonly params: Record<string, unknown>;
}

/** What the restarted agent cannot be given back, in words (for a trace note). */
export interface RestorePlan {
  readonly restores: readonly SessionRestore[];
  readonly skipped: string | null;
}

const OPENING = new Set(["session/new", "session/load", "session/resume", "session/fork"]);
const MAX_PENDING = 1_000;
const MAX_SESSIONS = 1_000;

/**
 * The sessions the client opened on one connection (from `session/new`, `session/load`,
 * `session/resume` and `session/fork` that the agent answered with success, minus those closed
 * with `session/close`), and what the agent said it supports in its `initialize` answer. After a
 * restart, `plan` turns them into the `session/resume` (v2) or `session/load` (v1, when the agent
 * advertises `loadSession`) requests that give the new agent process its sessions back.
 */
export class SessionReplay {
  /** Keyed by the request id itself (a Map tells 1 from "1"). */
  private readonly pending = new Map<JsonRpcId, { method: string; params: Record<string, unknown> }>();
  private readonly sessions = new Map<string, OpenSession>();
  /** The id of the client's `initialize` still unanswered (`undefined`: none). */
  private initializeId: JsonRpcId | undefined = undefined;
  private protocolVersion: number | null = null;
  private loadSession = false;

  /** Feed every frame of the connection the client or agent sent (not the tap's own), in order. */
  observe(frame: Frame, dir: Direction): void {
    if (dir === "client->agent" && frame.kind === "request") {
      if (frame.method === "initialize") {
        this.initializeId = frame.id;
        const v = asJsonObject(frame.params)?.protocolVersion;
        if (typeof v === "number") this.protocolVersion = v;
      } else if (OPENING.has(frame.method) || frame.method === "session/close") {
        if (this.pending.size >= MAX_PENDING) this.pending.clear();
        this.pending.set(frame.id, { method: frame.method, params: asJsonObject(frame.params) ?? {} });
      }
      return;
    }
    if (dir !== "agent->client" || frame.kind !== "result") return;
    const key = frame.id;
    if (key === this.initializeId) {
      this.initializeId = undefined;
      this.agentInitialized(frame.result);
      return;
    }
    const req = this.pending.get(key);
    if (!req) return;
    this.pending.delete(key);
    const result = asJsonObject(frame.result);
    const own = typeof req.params.sessionId === "string" ? req.params.sessionId : undefined;
    if (req.method === "session/close") {
      if (own !== undefined) this.sessions.delete(own);
      return;
    }
    const created = typeof result?.sessionId === "string" ? result.sessionId : undefined;
    const sessionId = req.method === "session/new" || req.method === "session/fork" ? created : own;
    if (sessionId === undefined || this.sessions.size >= MAX_SESSIONS) return;
    const cwd = typeof req.params.cwd === "string" ? req.params.cwd : "/";
    this.sessions.set(sessionId, {
      sessionId,
      cwd,
      ...(req.params.mcpServers !== undefined && { mcpServers: req.params.mcpServers }),
    });
  }

  /** Takes the agent's `initialize` result (the client's, or the answer to the tap's replay). */
  agentInitialized(result: unknown): void {
    const r = asJsonObject(result);
    if (!r) return;
    if (typeof r.protocolVersion === "number") this.protocolVersion = r.protocolVersion;
    this.loadSession = asJsonObject(r.agentCapabilities)?.loadSession === true;
  }

  /** The sessions open now, oldest first. */
  open(): readonly OpenSession[] {
    return [...this.sessions.values()];
  }

  /** The requests that give a restarted agent the client's sessions back, and what cannot be. */
  plan(): RestorePlan {
    const open = this.open();
    if (open.length === 0) return { restores: [], skipped: null };
    if (this.protocolVersion !== null && this.protocolVersion >= 2) {
      return {
        restores: open.map((s) => ({
          sessionId: s.sessionId,
          method: "session/resume",
          params: {
            sessionId: s.sessionId,
            cwd: s.cwd,
            ...(s.mcpServers !== undefined && { mcpServers: s.mcpServers }),
          },
        })),
        skipped: null,
      };
    }
    if (this.loadSession) {
      return {
        restores: open.map((s) => ({
          sessionId: s.sessionId,
          method: "session/load",
          params: { sessionId: s.sessionId, cwd: s.cwd, mcpServers: s.mcpServers ?? [] },
        })),
        skipped: null,
      };
    }
    return {
      restores: [],
      skipped: `the agent speaks ACP v1 without loadSession, so the ${open.length} session(s) the client opened cannot be given back to the restarted agent`,
    };
  }
}
