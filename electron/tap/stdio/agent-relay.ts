import type { Readable, Writable } from "node:stream";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { ConnectionFaults } from "../faults/connection-faults.js";
import type { FaultInjector } from "../faults/fault-injector.js";
import { MAX_FRAME_BYTES } from "../frames/frame-evidence.js";
import type { FramePolicy } from "../frames/frame-policy.js";
import { FramePump } from "../frames/frame-pump.js";
import { type AgentExit, AgentProcess, spawnFailureStatus } from "./agent-process.js";
import { ClientEnd } from "./client-end.js";
import { relayStderr } from "./stderr-relay.js";

/** After the agent exited, how long the tap waits for its stdout/stderr to end (a grandchild may hold them open). */
export const AGENT_STDIO_GRACE_MS = 2000;

/** One client connection served by one agent process at a time (a restart replaces the process). */
export interface AgentRelayOptions {
  /** The agent command: program and arguments. */
  readonly command: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly conn: number;
  /** For the `conn-open` record: `stdio`, `ws`, `http`. */
  readonly transport: string;
  readonly peer?: string;
  /** The client's side: the lines it sends, where its lines go, where the agent's stderr goes. */
  readonly clientIn: Readable;
  readonly clientOut: Writable;
  readonly errOut: Writable;
  readonly trace: TraceFanout;
  /** Fault rules; the relay registers its connection there. */
  readonly faults?: FaultInjector;
  /** A plain policy for both directions (library use); ignored when `faults` is given. */
  readonly policy?: FramePolicy;
  readonly maxFrameBytes?: number;
  /** The `conn-close` reason when the client's input ends (default `client closed stdin`). */
  readonly clientEndReason?: string;
  /** Put `conn` on `agent-spawn`/`agent-exit` (one agent process per connection). */
  readonly tagAgentRecords?: boolean;
  /** Closes the client's connection (default: end `clientOut`). */
  readonly closeClient?: () => void;
}

/** How a relayed connection ended. */
export type AgentRelayEnd =
  | { readonly kind: "exited"; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: "spawn-failed"; readonly status: number; readonly message: string };

/**
 * Runs the agent for one client connection and moves every line between them, recording each
 * first. Carries out the lifecycle faults: disconnect (close the client, stop the agent), kill
 * (SIGKILL; the connection ends as if the agent crashed) and restart (SIGKILL, respawn the same
 * command, replay the client's `initialize` and resume its ACP sessions, then forward the client's
 * queued frames).
 */
export class AgentRelay {
  private agent: AgentProcess | null = null;
  private client: ClientEnd | null = null;
  private restartPending = false;
  private connFaults: ConnectionFaults | undefined;

  constructor(private readonly o: AgentRelayOptions) {}

  /** Runs the connection to its end (the last agent exited). Never rejects; does not close the trace. */
  async run(): Promise<AgentRelayEnd> {
    const { trace, conn } = this.o;
    const client = new ClientEnd(trace, this.o);
    this.client = client;
    this.connFaults = this.o.faults?.connection(conn, {
      disconnectClient: () => this.disconnect("disconnected by a disconnect-client fault"),
      killAgent: () => this.agent?.kill("SIGKILL"),
      restartAgent: () => this.restart(),
      sendToAgent: (line) => {
        const stdin = this.agent?.child.stdin;
        if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.write(line);
      },
    });
    try {
      let agent = await this.spawn();
      if (!agent.ok) {
        client.ended("agent could not be started");
        this.o.closeClient?.();
        return agent.end;
      }
      const clientPump = new FramePump({
        source: this.o.clientIn,
        dest: agent.process.child.stdin,
        conn,
        dir: "client->agent",
        trace,
        maxFrameBytes: this.o.maxFrameBytes ?? MAX_FRAME_BYTES,
        policy: this.connFaults?.policy ?? this.o.policy,
        onSourceEnd: () => this.connFaults?.settleHolds("the client closed the connection"),
        onEnd: () => {
          if (client.ended(this.o.clientEndReason ?? "client closed stdin")) this.agent?.child.stdin.end();
        },
        onDestError: (err) =>
          trace.emit({
            type: "note",
            level: "warn",
            text: `cannot write to the agent's stdin: ${err.message}`,
          }),
      });
      client.pump = clientPump;
      let first = true;
      for (;;) {
        const current = agent.process;
        const drained = this.pumpAgent(current, agent.pid);
        if (first) clientPump.start();
        else void this.replay(current);
        first = false;
        const exit = await current.exited;
        await this.drain(current, drained);
        trace.emit({
          type: "agent-exit",
          pid: agent.pid,
          code: exit.code,
          signal: exit.signal,
          ...(this.o.tagAgentRecords && { conn }),
        });
        if (!(this.restartPending && client.isOpen)) return this.finish(exit);
        this.restartPending = false;
        const next = await this.spawn();
        if (!next.ok) {
          this.connFaults?.endRestart();
          return this.finish({ code: null, signal: "SIGKILL" });
        }
        agent = next;
        clientPump.setDest(next.process.child.stdin);
      }
    } finally {
      this.o.faults?.release(conn);
    }
  }

  /** Passes a signal the tap received on to the agent. */
  kill(signal: NodeJS.Signals): void {
    this.connFaults?.settleHolds(`the tap received ${signal}`);
    this.agent?.kill(signal);
  }

  /** Closes the client's connection and stops the agent (the stdio equivalent of a dropped connection). */
  disconnect(reason: string): void {
    if (!this.client?.isOpen) return;
    this.client.pump?.stop();
    this.connFaults?.settleHolds(`the client's connection was closed (${reason})`);
    this.client.close(reason);
    this.closeClient();
    this.agent?.child.stdin.end();
    this.agent?.kill("SIGTERM");
  }

  /** SIGKILLs the agent and respawns it once it is gone; client frames wait meanwhile. False when no restart began. */
  restart(): boolean {
    if (!this.client?.isOpen || !this.agent) return false;
    if (this.restartPending) return true;
    this.restartPending = true;
    this.connFaults?.beginRestart();
    this.agent.kill("SIGKILL");
    return true;
  }

  private closeClient(): void {
    if (this.o.closeClient) this.o.closeClient();
    else this.o.clientOut.end();
  }

  private finish(exit: AgentExit): AgentRelayEnd {
    if (this.client?.close("agent exited")) this.closeClient();
    return { kind: "exited", code: exit.code, signal: exit.signal };
  }

  private async spawn(): Promise<
    | { ok: true; process: AgentProcess; pid: number }
    | { ok: false; end: Extract<AgentRelayEnd, { kind: "spawn-failed" }> }
  > {
    const { trace, command } = this.o;
    const agent = new AgentProcess(command, { cwd: this.o.cwd, env: this.o.env });
    const start = await agent.started;
    if (!start.ok) {
      const message = `cannot start agent '${command[0] ?? ""}': ${start.errno === "ENOENT" ? "command not found" : start.message} (${start.errno})`;
      trace.emit({ type: "note", level: "error", text: message });
      return { ok: false, end: { kind: "spawn-failed", status: spawnFailureStatus(start.errno), message } };
    }
    this.agent = agent;
    trace.emit({
      type: "agent-spawn",
      pid: start.pid,
      command: [...command],
      ...(this.o.tagAgentRecords && { conn: this.o.conn }),
    });
    return { ok: true, process: agent, pid: start.pid };
  }

  /** Starts moving the agent's stdout to the client and relaying its stderr; resolves when both ended. */
  private pumpAgent(agent: AgentProcess, pid: number): Promise<unknown> {
    const { trace } = this.o;
    const out = new Promise<void>((resolve) => {
      new FramePump({
        source: agent.child.stdout,
        dest: this.o.clientOut,
        conn: this.o.conn,
        dir: "agent->client",
        trace,
        maxFrameBytes: this.o.maxFrameBytes ?? MAX_FRAME_BYTES,
        policy: this.connFaults?.policy ?? this.o.policy,
        onEnd: resolve,
        onDestError: (err) =>
          trace.emit({ type: "note", level: "warn", text: `cannot write to the client: ${err.message}` }),
      }).start();
    });
    const err = new Promise<void>((resolve) =>
      relayStderr(agent.child.stderr, this.o.errOut, trace, pid, resolve),
    );
    return Promise.all([out, err]);
  }

  /** After the agent exited: waits for the rest of its output, at most `AGENT_STDIO_GRACE_MS`. */
  private async drain(agent: AgentProcess, drained: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), AGENT_STDIO_GRACE_MS);
    });
    if ((await Promise.race([drained, grace])) === "timeout") {
      this.o.trace.emit({
        type: "note",
        level: "warn",
        text: `the agent exited but its stdout/stderr stayed open for ${AGENT_STDIO_GRACE_MS} ms (a child process still holds them); closing them`,
      });
      this.connFaults?.settleHolds("the agent exited and its output closed");
      agent.child.stdout.destroy();
      agent.child.stderr.destroy();
      await drained;
    }
    clearTimeout(timer);
  }

  /** Replays the client's `initialize` and sessions (and queued retries) to a restarted agent, then lets the queued client frames through. */
  private async replay(agent: AgentProcess): Promise<void> {
    const faults = this.connFaults;
    if (!faults) return;
    await faults.replayAfterRestart((bytes) => {
      if (!agent.child.stdin.destroyed) agent.child.stdin.write(bytes);
    });
    faults.endRestart();
  }
}
