/**
 * Where a trace's records are analysed. A live trace's are analysed in this thread, record by
 * record as they arrive (`LocalAnalysis`); an imported file's in a worker (`worker-analysis.ts`), so
 * the window's thread only decodes and keeps the records while the other core runs the analyzer.
 * Both take the same calls in the same order and give the same `TimelineChanges`.
 */
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import type { TimelineChanges, TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import type { InvalidRecord } from "../../../shared/trace/record-check.js";

/** A trace's analyzer, here or in a worker. */
export interface TraceAnalysis {
  ingestHeader(header: TraceHeader): void;
  /**
   * An import's next lines of trace text, before their entries are given (`decodeLines` makes one
   * entry per record or invalid line, given here as `ingest` or `ingestInvalid`): a worker decodes them itself.
   */
  readLines(lines: readonly string[]): void;
  /**
   * The next bytes of an import of our own format, from its first byte (`bytesEnded` after the
   * last): a worker decodes and splits them itself, so `readLines` is not called for them.
   */
  readBytes(bytes: Uint8Array): void;
  bytesEnded(): void;
  /** Resolves when the import may read on: at once here; once a worker is not too far behind there. */
  room(): Promise<void>;
  /** The next record (one whose seq repeats or goes back included: the analyzer counts it). */
  ingest(record: TraceRecord): void;
  ingestInvalid(record: InvalidRecord): void;
  /**
   * Asks for the rows changed since the last ask: `apply` gets them, at once here, once the worker
   * has analysed every record given before the ask there (answers come in the order asked).
   */
  takeChanges(apply: (changes: TimelineChanges) => void): void;
  /** Asks still unanswered (always 0 here). */
  readonly waiting: number;
  /** The analyzer's whole model; only a trace analysed here has it (live objects: read, never keep). */
  model(): TimelineModel | undefined;
  /** Nothing more will be given: a worker ends once it has answered. */
  finish(): void;
  /** Drops it: no answer is applied after this. */
  close(): void;
}

/** The analyzer in this thread. */
export class LocalAnalysis implements TraceAnalysis {
  private readonly analyzer = new Analyzer();
  readonly waiting = 0;

  ingestHeader(header: TraceHeader): void {
    this.analyzer.ingestHeader(header);
  }
  readLines(): void {}
  readBytes(): void {}
  bytesEnded(): void {}
  room(): Promise<void> {
    return Promise.resolve();
  }
  ingest(record: TraceRecord): void {
    this.analyzer.ingest(record);
  }
  ingestInvalid(record: InvalidRecord): void {
    this.analyzer.ingestInvalid(record);
  }
  takeChanges(apply: (changes: TimelineChanges) => void): void {
    apply(this.analyzer.takeChanges());
  }
  model(): TimelineModel {
    return this.analyzer.model();
  }
  finish(): void {}
  close(): void {}
}
