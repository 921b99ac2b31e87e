import { TraceSpans } from "../../shared/otel/trace-spans.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TapWatcher } from "../hub/tap-registry.js";
import type { SpanExport, SpanStepApplier } from "./span-export.js";

interface Exported {
  readonly spans: TraceSpans;
  readonly steps: SpanStepApplier;
}

/**
 * `serve --otlp`: the hub's side of the span export. It watches every tap the hub serves (the
 * records the hub stored, in order) and exports each tap's trace as the tap's own `--otlp` would.
 * A tap's trace ends, for its spans, when the tap detaches.
 */
export class HubOtel implements TapWatcher {
  private readonly traces = new Map<string, Exported>();

  constructor(
    private readonly exporter: SpanExport,
    private readonly options: { includePrompts: boolean },
  ) {}

  /** A tap said hello: its trace gets an analyzer and a planner (kept when the same trace comes back). */
  attached(traceId: string, _tapId: string, header: TraceHeader): void {
    if (this.traces.has(traceId)) return;
    this.traces.set(traceId, { spans: new TraceSpans(header, this.options), steps: this.exporter.steps() });
  }

  /** One stored batch: analyzed, its spans handed to the export's queue. */
  records(traceId: string, records: readonly TraceRecord[]): void {
    const t = this.traces.get(traceId);
    if (!t) return;
    for (const r of records) t.spans.ingest(r);
    t.steps.apply(t.spans.take());
  }

  /** The tap went away: its open spans end now. */
  detached(traceId: string): void {
    const t = this.traces.get(traceId);
    if (!t) return;
    this.traces.delete(traceId);
    t.steps.apply(t.spans.finish());
  }

  /** The hub stops: every trace still attached ends. */
  finishAll(): void {
    for (const id of [...this.traces.keys()]) this.detached(id);
  }
}
