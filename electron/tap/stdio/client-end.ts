/**
 * The client's end of one relayed connection, for both relays (the stdio `AgentRelay` and the remote
 * front's `UpstreamRelay`): it is opened on the record once and closed on the record once, whoever
 * closes it first (the client, the agent, a fault).
 */
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FramePump } from "../frames/frame-pump.js";

/** Where a relayed connection is opened on the record: its number, transport and peer. */
export interface ClientEndOptions {
  readonly conn: number;
  readonly transport: string;
  readonly peer?: string;
}

/** The client's end of a relayed connection: records `conn-open`, then one `conn-close` however it ends. */
export class ClientEnd {
  private open = true;
  /** The pump moving the client's frames to the agent, once started; stopped when the connection is closed. */
  pump: FramePump | null = null;

  constructor(
    private readonly trace: TraceFanout,
    private readonly o: ClientEndOptions,
  ) {
    trace.emit({ type: "conn-open", conn: o.conn, transport: o.transport, ...(o.peer && { peer: o.peer }) });
  }

  /** True until the connection was closed on the record. */
  get isOpen(): boolean {
    return this.open;
  }

  /** The client's input ended: records `conn-close` once. False when it was already closed. */
  ended(reason: string): boolean {
    if (!this.open) return false;
    this.open = false;
    this.trace.emit({ type: "conn-close", conn: this.o.conn, reason });
    return true;
  }

  /** Closes it from our side: stops the client's pump and records `conn-close` once. False when it was already closed. */
  close(reason: string): boolean {
    if (!this.open) return false;
    this.pump?.stop();
    return this.ended(reason);
  }
}
