import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TraceSink } from "../trace/trace-sink.js";
import { errorWords } from "./error-words.js";
import { RecordSpans } from "./record-spans.js";
import type { AnalysisEntry, RecordAnalysis, SpanExport } from "./span-export.js";
import { TapSkipFilter } from "./tap-skip-filter.js";

/** Records held at most while the export is still starting; past it the span export stops (told once). */
export const OTLP_MAX_EARLY_RECORDS = 100_000;

/**
 * The tap's `--otlp` as a *lossy* trace sink. On the forwarding turn `write` only keeps the record
 * (an Agent frame no span depends on, by a text check, only its time); once per event-loop turn
 * the batch is handed to the analysis, which runs in the export's worker thread with the SDK
 * (record-spans.ts; in this thread only when running from source, without the bundled worker).
 * It never applies backpressure, so the collector never slows the session; the trace file stays
 * the record. The analysis skips a record it fails on and stops after a few in a row: the tap
 * never dies of it.
 */
export class OtelSink implements TraceSink {
  private readonly skip = new TapSkipFilter();
  private batch: AnalysisEntry[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  /** Null until the export has started (or for good when there is none). */
  private analysis: RecordAnalysis | null = null;
  private readonly ready: Promise<void>;
  private starting = true;
  /** The time of the last skipped frame not yet handed over (only the last of a run matters). */
  private trailing: number | null = null;
  private closed = false;

  /** `exporter` may still be starting: records are held until it is there. */
  constructor(
    header: TraceHeader,
    exporter: Promise<SpanExport | null>,
    options: { includePrompts: boolean },
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.ready = exporter.then(
      (e) => {
        this.starting = false;
        if (!e || this.closed) {
          this.batch = [];
          return;
        }
        this.analysis = e.analyze?.(header, options) ?? new RecordSpans(header, e.steps(), options, warn);
        this.flush();
      },
      () => {
        this.starting = false;
        this.batch = [];
      },
    );
  }

  /** Keeps the record for this turn's batch. */
  write(record: TraceRecord): void {
    if (this.closed) return;
    let entry: AnalysisEntry = record;
    try {
      if (this.skip.skippable(record)) entry = record.ts;
    } catch (err) {
      this.warn(`otlp: record seq ${record.seq} not checked (${errorWords(err)}); it goes to the spans`);
    }
    if (typeof entry === "number") {
      // A run of skipped frames tells the analysis only its last time, with the next record (or at
      // close): a turn of nothing but chunks costs no hand-over.
      this.trailing = entry;
      return;
    }
    if (this.trailing !== null) this.batch.push(this.trailing);
    this.trailing = null;
    this.batch.push(entry);
    if (this.starting) {
      if (this.batch.length > OTLP_MAX_EARLY_RECORDS) {
        this.closed = true;
        this.batch = [];
        this.warn(
          `otlp: the export did not start in time (${OTLP_MAX_EARLY_RECORDS} records held); span export stopped, the trace file still has everything`,
        );
      }
      return;
    }
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Always `null`: spans never slow the session down. */
  backpressure(): null {
    return null;
  }

  /** Hands over what is held, then ends every open span (the trace ended); the export itself is closed by its owner. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.ready;
    if (this.closed) return;
    if (this.trailing !== null) this.batch.push(this.trailing);
    this.trailing = null;
    this.flush();
    this.closed = true;
    this.analysis?.finish();
  }

  private flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    const batch = this.batch;
    if (batch.length === 0 || !this.analysis) return;
    this.batch = [];
    try {
      this.analysis.write(batch);
    } catch (err) {
      // Never expected (records are plain data); the session goes on without spans.
      this.closed = true;
      this.analysis = null;
      this.warn(`otlp: span export stopped (${errorWords(err)}); the trace file still has everything`);
    }
  }
}
