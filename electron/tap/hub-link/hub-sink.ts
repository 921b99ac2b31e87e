import type { TraceRecord } from "../../../shared/trace/record.js";
import type { TraceSink } from "../../trace/trace-sink.js";
import type { HubLink } from "./hub-link.js";

/** How long closing the tap waits for the hub to acknowledge the last records. */
export const HUB_FLUSH_TIMEOUT_MS = 1_000;

/**
 * The hub link as a *lossy* trace sink: it never applies backpressure (the link keeps a bounded
 * backlog and drops its oldest records when no hub takes them), so the session never waits for
 * the hub. The trace file stays the complete record.
 */
export class HubSink implements TraceSink {
  constructor(private readonly link: HubLink) {}

  /** Queues the record for the hub. */
  write(record: TraceRecord): void {
    this.link.send(record);
  }

  /** Always `null`: the hub never slows the session down. */
  backpressure(): null {
    return null;
  }

  /** Gives the hub a moment to acknowledge what it has not yet, then disconnects. */
  async close(): Promise<void> {
    await this.link.close(HUB_FLUSH_TIMEOUT_MS).catch(() => {});
  }
}
