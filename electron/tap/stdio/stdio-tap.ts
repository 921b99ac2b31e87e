import type { Readable, Writable } from "node:stream";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FaultInjector } from "../faults/fault-injector.js";
import type { FramePolicy } from "../frames/frame-policy.js";
import { AgentRelay } from "./agent-relay.js";

export { AGENT_STDIO_GRACE_MS } from "./agent-relay.js";

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
  /** Fault-injection seam; without it every frame is forwarded at once. Ignored when `faults` is given. */
  readonly policy?: FramePolicy;
  /** Fault rules (command line and hub) applied to this connection. */
  readonly faults?: FaultInjector;
  /** Overrides `MAX_FRAME_BYTES` (tests use small values). */
  readonly maxFrameBytes?: number;
}

/** How a stdio tap's connection ended. */
export type TapOutcome =
  | { readonly kind: "exited"; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: "spawn-failed"; readonly status: number; readonly message: string };

/**
 * The stdio tap: spawns the agent, then moves every line between the client and the agent byte
 * for byte and in order, recording each one first; passes the agent's stderr through and
 * records it. Ends when the agent exits (a `restart-agent` fault replaces it instead), after its
 * last output was recorded and the trace flushed.
 */
export class StdioTap {
  private readonly relay: AgentRelay;

  constructor(private readonly o: StdioTapOptions) {
    this.relay = new AgentRelay({ ...o, conn: STDIO_CONN, transport: "stdio", peer: "stdin/stdout" });
  }

  /** Runs the connection to its end. Never rejects. */
  async run(): Promise<TapOutcome> {
    const end = await this.relay.run();
    await this.o.trace.close();
    return end;
  }

  /** Passes a signal the tap received on to the agent, and records that. */
  forwardSignal(signal: NodeJS.Signals): void {
    this.o.trace.emit({
      type: "note",
      level: "info",
      text: `received ${signal}; forwarding it to the agent`,
    });
    this.relay.kill(signal);
  }
}
