import { PassThrough, type Readable, type Writable } from "node:stream";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FaultInjector } from "../faults/fault-injector.js";
import { MAX_FRAME_BYTES } from "../frames/frame-evidence.js";
import { FramePump } from "../frames/frame-pump.js";
import { ClientEnd } from "../stdio/client-end.js";
import type { ClientCloseWhy } from "./client-channel.js";
import { LineOutbox } from "./line-outbox.js";
import { openUpstream } from "./open-upstream.js";
import type { UpstreamChannel, UpstreamRefusal, UpstreamTarget } from "./upstream-channel.js";

/** What an `UpstreamRelay` connects: one client connection and the remote agent (URL and token). */
export interface UpstreamRelayOptions {
  /** The agent's URL, `ws(s)://` (WebSocket) or `http(s)://` (Streamable HTTP), and its token. */
  readonly target: UpstreamTarget;
  readonly conn: number;
  readonly transport: string;
  readonly peer?: string;
  readonly clientIn: Readable;
  readonly clientOut: Writable;
  readonly trace: TraceFanout;
  readonly faults?: FaultInjector;
  /** Closes the client's connection; `why` when it is a refusal the client should be told (a WebSocket close code). */
  readonly closeClient: (why?: ClientCloseWhy) => void;
  /** Where a refusal by the agent (its 401) is also said, one line (the tap's stderr). */
  readonly errOut?: Writable;
}

/**
 * How a client's WebSocket is closed when the remote agent answered 401: a private close code
 * (4000-4999 are the application's) whose last three digits are the HTTP status, so a client can
 * say "401" instead of reconnecting forever (demo-client does).
 */
export const UNAUTHORIZED_CLOSE: ClientCloseWhy = {
  code: 4401,
  reason: "the remote agent wants a token (401)",
};

const NL = Buffer.from("\n");

/** How the upstream connection ended: the reason for the trace, and whether the agent refused it. */
interface UpstreamEnd {
  readonly reason: string;
  readonly refusal?: UpstreamRefusal;
}

/**
 * One client connection forwarded to a remote agent over its own upstream connection (WebSocket or
 * Streamable HTTP, see `openUpstream`): each client message goes up as one message and each agent
 * message comes back as one message, verbatim, recorded first. There is no agent process here, so
 * `kill-agent` and `restart-agent` are noted, not applied; `disconnect-client` closes both
 * connections.
 */
export class UpstreamRelay {
  private client: ClientEnd | null = null;
  private upstream: UpstreamChannel | null = null;

  constructor(private readonly o: UpstreamRelayOptions) {}

  /** Runs the connection to its end. Never rejects. */
  async run(): Promise<void> {
    const { trace, conn } = this.o;
    const client = new ClientEnd(trace, this.o);
    this.client = client;
    const noProcess = (action: string) =>
      trace.emit({
        type: "note",
        level: "warn",
        text: `${action}: the agent is remote (--agent-url), no process to act on`,
      });
    let upstreamOut: Writable = new PassThrough(); // replaced by the upstream's outbox below
    const faults = this.o.faults?.connection(conn, {
      disconnectClient: () => this.disconnect("disconnected by a disconnect-client fault"),
      killAgent: () => noProcess("kill-agent"),
      restartAgent: () => {
        noProcess("restart-agent");
        return false;
      },
      sendToAgent: (line) => {
        if (!upstreamOut.writableEnded) upstreamOut.write(line);
      },
    });
    try {
      const upstreamIn = new PassThrough();
      let ended: (end: UpstreamEnd) => void = () => undefined;
      const closed = new Promise<UpstreamEnd>((resolve) => {
        ended = resolve;
      });
      const link = openUpstream(this.o.target, {
        message: (bytes) => {
          if (!upstreamIn.writableEnded) upstreamIn.write(Buffer.concat([bytes, NL]));
        },
        closed: (reason, refusal) => ended({ reason, refusal }),
      });
      this.upstream = link;
      upstreamOut = new LineOutbox((line) => link.send(line));
      void closed.then(({ reason }) => {
        faults?.settleHolds(`the agent's connection closed (${reason})`);
        upstreamIn.end();
      });
      const agentDone = new Promise<void>((resolve) => {
        new FramePump({
          source: upstreamIn,
          dest: this.o.clientOut,
          conn,
          dir: "agent->client",
          trace,
          maxFrameBytes: MAX_FRAME_BYTES,
          policy: faults?.policy,
          onEnd: resolve,
        }).start();
      });
      client.pump = new FramePump({
        source: this.o.clientIn,
        dest: upstreamOut,
        conn,
        dir: "client->agent",
        trace,
        maxFrameBytes: MAX_FRAME_BYTES,
        policy: faults?.policy,
        onSourceEnd: () => faults?.settleHolds("the client closed the connection"),
        onEnd: () => {
          if (client.ended("client closed the connection")) link.close();
        },
      });
      client.pump.start();
      const { reason, refusal } = await closed;
      await agentDone;
      if (refusal === "unauthorized") this.reportRefusal(reason);
      if (client.close(reason))
        this.o.closeClient(refusal === "unauthorized" ? UNAUTHORIZED_CLOSE : undefined);
    } finally {
      this.o.faults?.release(conn);
    }
  }

  /** Says on the record and on stderr that the agent refused the connection (its 401), before the close. */
  private reportRefusal(reason: string): void {
    const { trace, conn, target } = this.o;
    trace.emit({ type: "note", level: "error", text: `conn #${conn}: ${reason} (${target.url})` });
    this.o.errOut?.write(`acp-retry-inspector: conn #${conn}: ${reason} (${target.url})\n`);
  }

  /** Closes the client's connection and the upstream one. */
  disconnect(reason: string): void {
    if (!this.client?.close(reason)) return;
    this.o.closeClient();
    this.upstream?.close();
  }
}
