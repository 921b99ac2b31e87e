import { PassThrough, type Readable, type Writable } from "node:stream";
import { WebSocket } from "ws";
import type { FaultInjector } from "../tap/fault-injector.js";
import { MAX_FRAME_BYTES } from "../tap/frame-evidence.js";
import { FramePump } from "../tap/frame-pump.js";
import type { TraceFanout } from "../trace/trace-fanout.js";
import { LineOutbox } from "./line-outbox.js";

/** What an `UpstreamSession` connects: one client connection and the remote agent's URL. */
export interface UpstreamSessionOptions {
  /** `ws://host:port/path` of the agent. */
  readonly url: string;
  readonly conn: number;
  readonly transport: string;
  readonly peer?: string;
  readonly clientIn: Readable;
  readonly clientOut: Writable;
  readonly trace: TraceFanout;
  readonly faults?: FaultInjector;
  readonly closeClient: () => void;
}

const NL = Buffer.from("\n");

/**
 * One client connection forwarded to a remote agent over its own upstream WebSocket: each client
 * message goes up as one text frame and each agent frame comes back as one message, verbatim,
 * recorded first. There is no agent process here, so `kill-agent` and `restart-agent` are noted,
 * not applied; `disconnect-client` closes both connections.
 */
export class UpstreamSession {
  private clientOpen = true;
  private socket: WebSocket | null = null;
  private clientPump: FramePump | null = null;

  constructor(private readonly o: UpstreamSessionOptions) {}

  /** Runs the connection to its end. Never rejects. */
  async run(): Promise<void> {
    const { trace, conn } = this.o;
    trace.emit({
      type: "conn-open",
      conn,
      transport: this.o.transport,
      ...(this.o.peer && { peer: this.o.peer }),
    });
    const noProcess = (action: string) =>
      trace.emit({
        type: "note",
        level: "warn",
        text: `${action}: the agent is remote (--agent-url), no process to act on`,
      });
    const faults = this.o.faults?.connection(conn, {
      disconnectClient: () => this.disconnect("disconnected by a disconnect-client fault"),
      killAgent: () => noProcess("kill-agent"),
      restartAgent: () => noProcess("restart-agent"),
    });
    try {
      const socket = new WebSocket(this.o.url, { perMessageDeflate: false, handshakeTimeout: 10_000 });
      this.socket = socket;
      const upstreamIn = new PassThrough();
      const queued: string[] = [];
      const upstreamOut = new LineOutbox((line) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(line);
        else if (socket.readyState === WebSocket.CONNECTING) queued.push(line);
      });
      socket.on("open", () => {
        for (const line of queued.splice(0)) socket.send(line);
      });
      socket.on("message", (data: Buffer) => upstreamIn.write(Buffer.concat([data, NL])));
      const closed = new Promise<string>((resolve) => {
        socket.on("error", (err) => resolve(`cannot reach the agent at ${this.o.url}: ${err.message}`));
        socket.on("close", () => resolve("agent closed the connection"));
      });
      void closed.then(() => upstreamIn.end());
      const agentDone = new Promise<void>((resolve) => {
        new FramePump({
          source: upstreamIn,
          dest: this.o.clientOut,
          conn,
          dir: "agent->client",
          trace,
          maxFrameBytes: MAX_FRAME_BYTES,
          policy: faults?.agentPolicy,
          onEnd: resolve,
        }).start();
      });
      this.clientPump = new FramePump({
        source: this.o.clientIn,
        dest: upstreamOut,
        conn,
        dir: "client->agent",
        trace,
        maxFrameBytes: MAX_FRAME_BYTES,
        policy: faults?.clientPolicy,
        onEnd: () => {
          if (!this.clientOpen) return;
          this.clientOpen = false;
          trace.emit({ type: "conn-close", conn, reason: "client closed the connection" });
          socket.close(1000);
        },
      });
      this.clientPump.start();
      const why = await closed;
      await agentDone;
      if (this.clientOpen) {
        this.clientOpen = false;
        this.clientPump.stop();
        trace.emit({ type: "conn-close", conn, reason: why });
        this.o.closeClient();
      }
    } finally {
      this.o.faults?.release(conn);
    }
  }

  /** Closes the client's connection and the upstream one. */
  disconnect(reason: string): void {
    if (!this.clientOpen) return;
    this.clientOpen = false;
    this.clientPump?.stop();
    this.o.trace.emit({ type: "conn-close", conn: this.o.conn, reason });
    this.o.closeClient();
    this.socket?.close(1000);
  }
}
