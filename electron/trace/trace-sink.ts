import type { TraceRecord } from "../../shared/trace/record.js";

/**
 * Somewhere the tap sends every `TraceRecord`, in `seq` order.
 *
 * Two kinds exist. An *evidence* sink (the trace file) must not lose records: when it cannot keep
 * up it returns a promise from `backpressure()` and the tap stops reading its peers until it
 * resolves. A *lossy* sink (a live view) must never slow the tap down: it always answers `null`
 * and drops or coalesces on its own when its consumer is slow. No sink may throw from `write`;
 * the tap still guards against one that does and detaches it.
 */
export interface TraceSink {
  /** Takes one record; called synchronously in `seq` order. */
  write(record: TraceRecord): void;
  /**
   * Hands every record written so far to the kernel before it returns (an evidence sink; a lossy
   * one leaves it out). The tap calls it right before it forwards bytes, so a record is in the
   * file even if the tap is killed (SIGKILL) the moment after.
   */
  commit?(): void;
  /** `null` when the sink can take more now, else a promise that resolves when it can. */
  backpressure(): Promise<void> | null;
  /** Flushes what it holds and releases its resources; never rejects. */
  close(): Promise<void>;
}
