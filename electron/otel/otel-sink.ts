import type { SpanOp } from "../../shared/otel/span-description.js";
import { TraceSpans } from "../../shared/otel/trace-spans.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TraceSink } from "../trace/trace-sink.js";
import { errorWords } from "./error-words.js";
import type { SpanExport, SpanStepApplier } from "./span-export.js";
import { redactSpanOps } from "./span-redaction.js";

/** Records in a row the analyzer may fail on before the sink detaches itself (the tap goes on). */
export const OTLP_MAX_FAILURES = 3;

/**
 * The tap's `--otlp` as a *lossy* trace sink: `write` only keeps the record; once per event-loop
 * turn the records go through the analyzer and the span planner, and the spans to the export's
 * bounded batch queue. It never applies backpressure, so the collector never slows the session;
 * the trace file stays the record. A record the analyzer or the planner fails on is skipped and
 * told once; after `OTLP_MAX_FAILURES` in a row the sink detaches itself: the tap never dies of it.
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
    private readonly options: { includePrompts: boolean },
    private readonly warn: (message: string) => void = () => {},
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
    try {
      if (this.held.length === 0 && this.spans.skipNow(record)) return;
    } catch (err) {
      this.failed(record, err);
      return;
    }
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
    try {
      this.apply(this.spans.finish());
    } catch (err) {
      this.warn(
        `otlp: the open spans could not be ended (${errorWords(err)}); the trace file still has everything`,
      );
    }
  }

  private apply(ops: SpanOp[]): void {
    const safe = redactSpanOps(ops, this.options.includePrompts);
    if (this.steps) this.steps.apply(safe);
    else this.early?.push(...safe);
  }

  private failures = 0;

  /** One record the span side failed on: skipped and told; past the limit in a row, the sink detaches. */
  private failed(record: TraceRecord, err: unknown): void {
    this.failures++;
    if (this.failures === 1)
      this.warn(
        `otlp: record seq ${record.seq} left out of the spans (${errorWords(err)}); the trace file still has it`,
      );
    if (this.failures >= OTLP_MAX_FAILURES && !this.closed) {
      this.closed = true;
      this.held = [];
      this.warn(`otlp: ${this.failures} records in a row failed; span export stopped, the session goes on`);
    }
  }

  private drain(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    const batch = this.held;
    this.held = [];
    for (const r of batch) {
      if (this.closed) return;
      try {
        this.spans.ingest(r);
        this.failures = 0;
      } catch (err) {
        this.failed(r, err);
      }
    }
    try {
      this.apply(this.spans.take());
    } catch (err) {
      this.warn(`otlp: spans of this batch left out (${errorWords(err)}); the trace file still has them`);
    }
  }
}
