/**
 * A trace written by the suite itself, as the Client, for URL targets (until the remote front,
 * `proxy --listen`, can record them as the tap does). Same format as the tap's: a header, then
 * `conn-open`, `frame` and `conn-close` records with connections numbered per case.
 */

import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../shared/trace/record.js";
import { lineEvidence } from "../tap/frame-evidence.js";
import { RecordSequencer } from "../trace/record-sequencer.js";
import { TraceFanout } from "../trace/trace-fanout.js";
import { TraceWriter } from "../trace/trace-writer.js";

/** Records one case's client-side frames into a trace file. */
export class ClientSideRecorder {
  private readonly trace: TraceFanout;
  private readonly closed = new Set<number>();

  constructor(
    readonly path: string,
    tool: string,
    transport: string,
    url: string,
  ) {
    const writer = new TraceWriter(path, {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool,
      startedAt: new Date().toISOString(),
      transport,
    });
    this.trace = new TraceFanout(new RecordSequencer(), [writer]);
    this.trace.emit({
      type: "note",
      level: "info",
      text: `recorded by the conformance suite as the Client of ${url} (not by a tap)`,
    });
  }

  /** A connection opened. */
  open(conn: number, transport: string, peer: string): void {
    this.trace.emit({ type: "conn-open", conn, transport, peer });
  }

  /** A message the suite sent, as the exact text it put on the wire. */
  sent(conn: number, text: string): void {
    this.trace.emit({
      type: "frame",
      conn,
      dir: "client->agent",
      ...lineEvidence(Buffer.from(text, "utf8"), true),
    });
  }

  /** A message the suite received: its exact bytes (a text frame), or its re-serialised text when the transport parsed it first. */
  received(conn: number, bytes: Buffer | string): void {
    const body = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
    this.trace.emit({ type: "frame", conn, dir: "agent->client", ...lineEvidence(body, true) });
  }

  /** A note on the record (a restart, a re-serialised transport). */
  note(text: string): void {
    this.trace.emit({ type: "note", level: "info", text });
  }

  /** A connection closed (recorded once per connection: whichever side noticed first). */
  close(conn: number, reason: string): void {
    if (this.closed.has(conn)) return;
    this.closed.add(conn);
    this.trace.emit({ type: "conn-close", conn, reason });
  }

  /** Flushes and closes the file. */
  finish(): Promise<void> {
    return this.trace.close();
  }
}
