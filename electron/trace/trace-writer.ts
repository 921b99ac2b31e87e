import { createWriteStream, type WriteStream } from "node:fs";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import type { TraceSink } from "./trace-sink.js";

/** Bytes the writer may hold (queued plus in flight) before it asks the tap to stop reading. */
export const TRACE_HIGH_WATER_BYTES = 8 * 1024 * 1024;
/** Encoded records are joined into writes of about this size. */
const BATCH_BYTES = 256 * 1024;

/** Options of a `TraceWriter`. */
export interface TraceWriterOptions {
  /** Called once, with a human-readable message, when the file cannot be opened or written. */
  readonly onError?: (message: string) => void;
  /** Overrides `TRACE_HIGH_WATER_BYTES`. */
  readonly highWaterBytes?: number;
}

/**
 * The trace file: an evidence `TraceSink` that appends the header and then one JSONL line per
 * record, in the order written. Records are batched into large writes; when more than the high-water
 * mark is queued, `backpressure()` makes the tap wait, so memory stays bounded and nothing is lost.
 * If the file cannot be opened or written it reports once through `onError`, drops everything
 * after that (counted in `droppedRecords`) and never blocks the tap again.
 */
export class TraceWriter implements TraceSink {
  private readonly stream: WriteStream;
  private batch: string[] = [];
  private batchBytes = 0;
  private flushScheduled = false;
  private waiters: (() => void)[] = [];
  private readonly highWater: number;
  private failure: string | null = null;
  private closing: Promise<void> | null = null;
  /** Records accepted after the file failed (so not written). */
  droppedRecords = 0;

  constructor(
    readonly path: string,
    header: TraceHeader,
    private readonly options: TraceWriterOptions = {},
  ) {
    this.highWater = options.highWaterBytes ?? TRACE_HIGH_WATER_BYTES;
    this.stream = createWriteStream(path, {
      flags: "w",
      // Never above our own mark, so being congested always means a 'drain' is coming.
      highWaterMark: Math.min(BATCH_BYTES, this.highWater),
    });
    this.stream.on("error", (err) => this.fail(err));
    this.stream.on("drain", () => this.wake());
    this.stream.write(encodeHeader(header));
  }

  /** The error message once the file failed, else `null`. */
  get failed(): string | null {
    return this.failure;
  }

  /** Queues one record line. */
  write(record: TraceRecord): void {
    if (this.failure !== null || this.closing) {
      this.droppedRecords++;
      return;
    }
    const line = encodeRecord(record);
    this.batch.push(line);
    this.batchBytes += line.length;
    if (this.batchBytes >= BATCH_BYTES) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** A promise while more than the high-water mark is queued; `null` otherwise (always `null` once failed). */
  backpressure(): Promise<void> | null {
    if (!this.congested()) return null;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes what is queued, ends the file and resolves when it is closed (or failed). Never rejects. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.flush();
    this.closing = new Promise((resolve) => {
      if (this.failure !== null || this.stream.destroyed) return resolve();
      this.stream.once("close", () => resolve());
      this.stream.end();
    });
    return this.closing;
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.batch.length === 0 || this.failure !== null) return;
    const text = this.batch.join("");
    this.batch = [];
    this.batchBytes = 0;
    this.stream.write(text);
    this.wake();
  }

  private congested(): boolean {
    return this.failure === null && this.stream.writableLength + this.batchBytes > this.highWater;
  }

  private wake(): void {
    if (this.congested()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private fail(err: Error): void {
    if (this.failure !== null) return;
    const code = (err as NodeJS.ErrnoException).code;
    this.failure = `cannot write trace file ${this.path}: ${code ? `${code} ` : ""}${err.message}`;
    this.droppedRecords += this.batch.length;
    this.batch = [];
    this.batchBytes = 0;
    this.options.onError?.(this.failure);
    this.wake();
  }
}
