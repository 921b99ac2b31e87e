/**
 * One client connection of the demo agent (stdio, or one remote connection of the SDK's server
 * transport): version negotiation at `initialize`, then v1 or v2 dispatch on raw JSON-RPC
 * messages, and the bookkeeping `$/cancel_request` needs.
 */

import type { AgentConnector, Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { ErrorCode } from "../../../shared/keys/peer-choices.js";
import { type IncomingRequest, JsonRpcPeer, RpcError } from "../rpc/json-rpc-peer.js";
import type { ConnectionScope, PendingPrompt } from "./connection-scope.js";
import type { DemoAgent } from "./demo-agent.js";
import type { HostedSession, SessionListener } from "./hosted-session.js";
import { paramsObject } from "./params.js";
import type { SessionUpdate } from "./turn-script.js";
import { handleV1Request } from "./v1-methods.js";
import { toV1Update } from "./v1-updates.js";
import { handleV2Notification, handleV2Request } from "./v2-methods.js";

/** The agent's `info` / `agentInfo`. */
export interface AgentInfo {
  readonly name: string;
  readonly version: string;
}

/** The protocol versions the agent speaks. */
export const SUPPORTED_VERSIONS = [1, 2] as const;

/** One connection of the demo agent. */
export class AgentConnection implements ConnectionScope {
  private version?: 1 | 2;
  private readonly rpc: JsonRpcPeer;
  private readonly attached = new Set<HostedSession>();
  private readonly pending = new Map<string, PendingPrompt>();
  /**
   * Messages take effect in arrival order: each waits here until the one before it has been
   * admitted (a prompt: tracked and queued; anything else: handled). Without it a
   * `$/cancel_request` could overtake the prompt it cancels.
   */
  private intake: Promise<void> = Promise.resolve();
  private readonly listener: SessionListener = (sessionId, update) => this.sendUpdate(sessionId, update);
  /** Resolves when the connection has ended. */
  readonly closed: Promise<void>;

  constructor(
    readonly agent: DemoAgent,
    stream: Stream,
    private readonly info: AgentInfo,
  ) {
    this.rpc = new JsonRpcPeer(stream, {
      onRequest: (request) => this.onRequest(request),
      onNotification: (method, params) => this.onNotification(method, params),
    });
    this.closed = this.rpc.closed.then(() => {
      // Held prompts stay queued (decisions.ts, HELD_PROMPTS_ON_DISCONNECT); only the updates stop.
      for (const session of this.attached) session.detach(this.listener);
      this.attached.clear();
    });
  }

  attach(session: HostedSession): void {
    this.attached.add(session);
    session.attach(this.listener);
  }

  detach(session: HostedSession): void {
    this.attached.delete(session);
    session.detach(this.listener);
  }

  sendUpdate(sessionId: string, update: SessionUpdate): void {
    const shaped = this.version === 1 ? toV1Update(update) : update;
    if (shaped) this.rpc.notify("session/update", { sessionId, update: shaped });
  }

  sendShaped(sessionId: string, update: Record<string, unknown>): void {
    this.rpc.notify("session/update", { sessionId, update });
  }

  async trackPrompt<T>(id: unknown, pending: PendingPrompt, work: Promise<T>): Promise<T> {
    const key = JSON.stringify(id);
    this.pending.set(key, pending);
    try {
      return await work;
    } finally {
      if (this.pending.get(key) === pending) this.pending.delete(key);
    }
  }

  pendingPrompt(id: unknown): PendingPrompt | undefined {
    return this.pending.get(JSON.stringify(id));
  }

  /** Waits for the previous message's turn; the returned function lets the next one in. */
  private async turnstile(): Promise<() => void> {
    const previous = this.intake;
    let release: () => void = () => undefined;
    this.intake = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    return release;
  }

  private async onRequest(request: IncomingRequest): Promise<unknown> {
    const admitted = await this.turnstile();
    try {
      if (request.method === "initialize") return this.initialize(request.params);
      if (this.version === undefined) {
        throw new RpcError(ErrorCode.invalidRequest, "Invalid request: send initialize first");
      }
      return await (this.version === 2
        ? handleV2Request(this, request, admitted)
        : handleV1Request(this, request, admitted));
    } finally {
      admitted();
    }
  }

  private onNotification(method: string, params: unknown): void {
    void this.turnstile().then(async (admitted) => {
      try {
        if (this.version !== undefined) await handleV2Notification(this, method, params);
      } catch (err) {
        process.stderr.write(
          `demo-agent: ${method} failed: ${err instanceof Error ? err.message : String(err)}\n`,
        );
      } finally {
        admitted();
      }
    });
  }

  private initialize(params: unknown): unknown {
    const requested = paramsObject(params).protocolVersion;
    if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 1) {
      throw new RpcError(ErrorCode.unsupportedProtocolVersion, "Unsupported protocol version", {
        requested,
        supported: SUPPORTED_VERSIONS,
      });
    }
    // The highest version we speak at or below the one asked for.
    this.version = requested >= 2 ? 2 : 1;
    if (this.version === 1) {
      return {
        protocolVersion: 1,
        // v1 `session/load` replays the stored conversation (v1-methods.ts).
        agentCapabilities: { loadSession: true },
        agentInfo: this.info,
        authMethods: [],
      };
    }
    return {
      protocolVersion: 2,
      info: this.info,
      // capabilities.session means: new, list, resume, close, prompt, cancel, and idempotency keys.
      capabilities: { session: { delete: {}, fork: {} } },
      authMethods: [],
    };
  }
}

/** An SDK `AgentConnector` serving each accepted connection (stdio stream or remote) with `agent`. */
export function demoAgentConnector(agent: DemoAgent, info: AgentInfo): AgentConnector {
  return {
    connect(stream: Stream) {
      const connection = new AgentConnection(agent, stream, info);
      return { closed: connection.closed };
    },
  };
}
