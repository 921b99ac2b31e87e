import type { Readable, Writable } from "node:stream";
import type { TraceFanout } from "../trace/trace-fanout.js";
import { AgentProcess, spawnFailureStatus } from "./agent-process.js";
import { MAX_FRAME_BYTES } from "./frame-evidence.js";
import type { FramePolicy } from "./frame-policy.js";
import { FramePump } from "./frame-pump.js";
import { relayStderr } from "./stderr-relay.js";

/** After the agent exited, how long the tap waits for its stdout/stderr to end (a grandchild may hold them open). */
export const AGENT_STDIO_GRACE_MS = 2000;
/** The stdio client is always connection #1. */
const STDIO_CONN = 1;

/** What a `StdioTap` connects. */
export interface StdioTapOptions {
  /** The agent command: program and arguments. */
  readonly command: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The client's side: what it writes to us, where we answer, where our stderr goes. */
  readonly clientIn: Readable;
  readonly clientOut: Writable;
  readonly errOut: Writable;
  /** Where every record goes (the trace file and any live sinks). */
  readonly trace: TraceFanout;
  /** Fault-injection seam; without it every frame is forwarded at once. */
  readonly policy?: FramePolicy;
  /** Overrides `MAX_FRAME_BYTES` (tests use small values). */
  readonly maxFrameBytes?: number;
}

/** How a tap session ended. */
export type TapOutcome =
  | { readonly kind: "exited"; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: "spawn-failed"; readonly status: number; readonly message: string };

/**
 * The stdio tap: spawns the agent, then moves every line between the client and the agent byte
 * for byte and in order, recording each one first; passes the agent's stderr through and
 * records it. Ends when the agent exits, after its last output was recorded and the trace flushed.
 */
export class StdioTap {
  private agent: AgentProcess | null = null;

  constructor(private readonly o: StdioTapOptions) {}

  /** Runs the session to its end. Never rejects. */
  async run(): Promise<TapOutcome> {
    const { trace, command } = this.o;
    trace.emit({ type: "conn-open", conn: STDIO_CONN, transport: "stdio", peer: "stdin/stdout" });
    const agent = new AgentProcess(command, { cwd: this.o.cwd, env: this.o.env });
    this.agent = agent;
    const start = await agent.started;
    if (!start.ok) {
      const message = `cannot start agent '${command[0] ?? ""}': ${start.errno === "ENOENT" ? "command not found" : start.message} (${start.errno})`;
      trace.emit({ type: "note", level: "error", text: message });
      trace.emit({ type: "conn-close", conn: STDIO_CONN, reason: "agent could not be started" });
      await trace.close();
      return { kind: "spawn-failed", status: spawnFailureStatus(start.errno), message };
    }
    trace.emit({ type: "agent-spawn", pid: start.pid, command: [...command] });

    let clientOpen = true;
    const maxFrameBytes = this.o.maxFrameBytes ?? MAX_FRAME_BYTES;
    const clientPump = new FramePump({
      source: this.o.clientIn,
      dest: agent.child.stdin,
      conn: STDIO_CONN,
      dir: "client->agent",
      trace,
      maxFrameBytes,
      policy: this.o.policy,
      onEnd: () => {
        clientOpen = false;
        trace.emit({ type: "conn-close", conn: STDIO_CONN, reason: "client closed stdin" });
        agent.child.stdin.end();
      },
      onDestError: (err) =>
        trace.emit({
          type: "note",
          level: "warn",
          text: `cannot write to the agent's stdin: ${err.message}`,
        }),
    });
    const agentOut = new Promise<void>((resolve) => {
      new FramePump({
        source: agent.child.stdout,
        dest: this.o.clientOut,
        conn: STDIO_CONN,
        dir: "agent->client",
        trace,
        maxFrameBytes,
        policy: this.o.policy,
        onEnd: resolve,
        onDestError: (err) =>
          trace.emit({ type: "note", level: "warn", text: `cannot write to the client: ${err.message}` }),
      }).start();
    });
    const agentErr = new Promise<void>((resolve) =>
      relayStderr(agent.child.stderr, this.o.errOut, trace, start.pid, resolve),
    );
    clientPump.start();

    const exit = await agent.exited;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), AGENT_STDIO_GRACE_MS);
    });
    const drained = Promise.all([agentOut, agentErr]);
    if ((await Promise.race([drained, grace])) === "timeout") {
      trace.emit({
        type: "note",
        level: "warn",
        text: `the agent exited but its stdout/stderr stayed open for ${AGENT_STDIO_GRACE_MS} ms (a child process still holds them); closing them`,
      });
      agent.child.stdout.destroy();
      agent.child.stderr.destroy();
      await drained;
    }
    clearTimeout(timer);
    trace.emit({ type: "agent-exit", pid: start.pid, code: exit.code, signal: exit.signal });
    if (clientOpen) {
      clientPump.stop();
      trace.emit({ type: "conn-close", conn: STDIO_CONN, reason: "agent exited" });
    }
    await trace.close();
    return { kind: "exited", code: exit.code, signal: exit.signal };
  }

  /** Passes a signal the tap received on to the agent, and records that. */
  forwardSignal(signal: NodeJS.Signals): void {
    this.o.trace.emit({
      type: "note",
      level: "info",
      text: `received ${signal}; forwarding it to the agent`,
    });
    this.agent?.kill(signal);
  }
}
