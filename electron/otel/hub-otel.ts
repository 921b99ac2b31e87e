import { TraceSpans } from "../../shared/otel/trace-spans.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TapWatcher } from "../hub/tap-registry.js";
import { errorWords } from "./error-words.js";
import { OTLP_MAX_FAILURES } from "./record-spans.js";
import type { SpanExport, SpanStepApplier } from "./span-export.js";
import { redactSpanOps } from "./span-redaction.js";

interface Exported {
  readonly spans: TraceSpans;
  readonly steps: SpanStepApplier;
  /** Records in a row the span side failed on. */
  failures: number;
}

/**
 * `serve --otlp`: the hub's side of the span export. It watches every tap the hub serves (the
 * records the hub stored, in order) and exports each tap's trace as the tap's own `--otlp` would.
 * A tap's trace ends, for its spans, when the tap detaches. A record the analyzer fails on is
 * skipped and told; a trace that keeps failing is no longer exported: the hub never dies of it.
 */
export class HubOtel implements TapWatcher {
  private readonly traces = new Map<string, Exported>();
  /** Traces whose export stopped after `OTLP_MAX_FAILURES` failures in a row. */
  private readonly stopped = new Set<string>();

  constructor(
    private readonly exporter: SpanExport,
    private readonly options: { includePrompts: boolean },
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** A tap said hello: its trace gets an analyzer and a planner (kept when the same trace comes back). */
  attached(traceId: string, _tapId: string, header: TraceHeader): void {
    if (this.traces.has(traceId) || this.stopped.has(traceId)) return;
    try {
      const spans = new TraceSpans(header, this.options);
      this.traces.set(traceId, { spans, steps: this.exporter.steps(), failures: 0 });
    } catch (err) {
      this.warn(`otlp: trace ${traceId} not exported (${errorWords(err)})`);
    }
  }

  /** One stored batch: analyzed, its spans handed to the export's queue. */
  records(traceId: string, records: readonly TraceRecord[]): void {
    const t = this.traces.get(traceId);
    if (!t) return;
    for (const r of records) {
      try {
        t.spans.ingest(r);
        t.failures = 0;
      } catch (err) {
        if (++t.failures === 1)
          this.warn(`otlp: trace ${traceId} record seq ${r.seq} left out of the spans (${errorWords(err)})`);
        if (t.failures >= OTLP_MAX_FAILURES) {
          this.traces.delete(traceId);
          this.stopped.add(traceId);
          this.warn(`otlp: trace ${traceId}: ${t.failures} records in a row failed; its span export stopped`);
          return;
        }
      }
    }
    this.apply(traceId, t, () => t.spans.take());
  }

  /** The tap went away: its open spans end now. */
  detached(traceId: string): void {
    const t = this.traces.get(traceId);
    if (!t) return;
    this.traces.delete(traceId);
    this.apply(traceId, t, () => t.spans.finish());
  }

  /** The hub stops: every trace still attached ends. */
  finishAll(): void {
    for (const id of [...this.traces.keys()]) this.detached(id);
  }

  private apply(traceId: string, t: Exported, ops: () => Parameters<typeof redactSpanOps>[0]): void {
    try {
      t.steps.apply(redactSpanOps(ops(), this.options.includePrompts));
    } catch (err) {
      this.warn(`otlp: trace ${traceId}: spans left out (${errorWords(err)})`);
    }
  }
}
