import type { SpanOp } from "../../shared/otel/span-description.js";
import { TraceSpans } from "../../shared/otel/trace-spans.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TraceSink } from "../trace/trace-sink.js";
import type { SpanExport, SpanStepApplier } from "./span-export.js";

/**
 * The tap's `--otlp` as a *lossy* trace sink: `write` only keeps the record; once per event-loop
 * turn the records go through the analyzer and the span planner, and the spans to the export's
 * bounded batch queue. It never applies backpressure, so the collector never slows the session;
 * the trace file stays the record.
 */
export class OtelSink implements TraceSink {
  private readonly spans: TraceSpans;
  private steps: SpanStepApplier | null = null;
  /** Steps planned while the SDK was still loading. */
  private early: SpanOp[] | null = [];
  private held: TraceRecord[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private closed = false;

  /** `exporter` may still be loading: records are analyzed at once, their spans wait for it. */
  constructor(
    header: TraceHeader,
    exporter: Promise<SpanExport | null>,
    options: { includePrompts: boolean },
  ) {
    this.spans = new TraceSpans(header, options);
    void exporter.then((e) => {
      const early = this.early ?? [];
      this.early = null;
      if (!e) return;
      this.steps = e.steps();
      this.steps.apply(early);
    });
  }

  /** Keeps the record for this turn's batch (a frame no span depends on is taken at once). */
  write(record: TraceRecord): void {
    if (this.closed) return;
    if (this.held.length === 0 && this.spans.skipNow(record)) return;
    this.held.push(record);
    this.scheduled ??= setImmediate(() => this.drain());
  }

  /** Always `null`: spans never slow the session down. */
  backpressure(): null {
    return null;
  }

  /** Exports what is held, then ends every open span (the trace ended); the export itself is closed by its owner. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.drain();
    this.closed = true;
    this.apply(this.spans.finish());
  }

  private apply(ops: SpanOp[]): void {
    if (this.steps) this.steps.apply(ops);
    else this.early?.push(...ops);
  }

  private drain(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    const batch = this.held;
    this.held = [];
    for (const r of batch) this.spans.ingest(r);
    this.apply(this.spans.take());
  }
}
