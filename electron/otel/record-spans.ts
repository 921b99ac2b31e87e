import { TraceSpans } from "../../shared/otel/trace-spans.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { errorWords } from "./error-words.js";
import type { AnalysisEntry, RecordAnalysis, SpanStepApplier } from "./span-export.js";
import { redactSpanOps } from "./span-redaction.js";

/** Records in a row the analyzer may fail on before a trace's span export stops (the tap goes on). */
export const OTLP_MAX_FAILURES = 3;

/**
 * One trace's span analysis for `--otlp`: records in batches (the analyzer and the span planner
 * run on them), redacted span steps out to the export. It runs in the export's worker thread (or,
 * from source, in the tap's thread). A record the analyzer or the planner fails on is skipped and
 * told once; after `OTLP_MAX_FAILURES` in a row the trace's export stops: the tap never dies of it.
 */
export class RecordSpans implements RecordAnalysis {
  private readonly spans: TraceSpans | null = null;
  private failures = 0;
  private stopped = false;

  constructor(
    header: TraceHeader,
    private readonly steps: SpanStepApplier,
    private readonly options: { includePrompts: boolean },
    private readonly warn: (message: string) => void,
  ) {
    try {
      this.spans = new TraceSpans(header, options);
    } catch (err) {
      this.stopped = true;
      warn(`otlp: the trace is not exported (${errorWords(err)}); the trace file still has everything`);
    }
  }

  /** Analyses a batch in order, then hands its spans to the export. */
  write(batch: readonly AnalysisEntry[]): void {
    const spans = this.spans;
    if (this.stopped || !spans) return;
    for (const r of batch) {
      if (typeof r === "number") {
        spans.passed(r);
        continue;
      }
      try {
        spans.ingest(r);
        this.failures = 0;
      } catch (err) {
        this.failed(r, err);
        if (this.stopped) return;
      }
    }
    try {
      this.apply(spans.take());
    } catch (err) {
      this.warn(`otlp: spans of this batch left out (${errorWords(err)}); the trace file still has them`);
    }
  }

  /** Ends every open span (the trace ended). */
  finish(): void {
    const spans = this.spans;
    if (this.stopped || !spans) return;
    this.stopped = true;
    try {
      this.apply(spans.finish());
    } catch (err) {
      this.warn(
        `otlp: the open spans could not be ended (${errorWords(err)}); the trace file still has everything`,
      );
    }
  }

  private apply(ops: Parameters<typeof redactSpanOps>[0]): void {
    this.steps.apply(redactSpanOps(ops, this.options.includePrompts));
  }

  /** One record the span side failed on: skipped and told; past the limit in a row, the export stops. */
  private failed(record: TraceRecord, err: unknown): void {
    this.failures++;
    if (this.failures === 1)
      this.warn(
        `otlp: record seq ${record.seq} left out of the spans (${errorWords(err)}); the trace file still has it`,
      );
    if (this.failures >= OTLP_MAX_FAILURES) {
      this.stopped = true;
      this.warn(`otlp: ${this.failures} records in a row failed; span export stopped, the session goes on`);
    }
  }
}
