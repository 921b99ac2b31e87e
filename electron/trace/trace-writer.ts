import { createWriteStream, type WriteStream } from "node:fs";
import { encodeHeader } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { describeCreateFailure, PRIVATE_FILE_MODE } from "./private-files.js";
import type { TraceSink } from "./trace-sink.js";

/** Bytes the writer may hold (queued plus in flight) before it asks the tap to stop reading. */
export const TRACE_HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** Records are encoded straight into buffers of this size, each written with one call. */
const BATCH_BYTES = 256 * 1024;
/** Records held unencoded at most; past that they are encoded at once. */
const MAX_QUEUED_RECORDS = 1024;
/** Where one record ends and the next begins in `JSON.stringify([r1, r2, ...])` (see `encodeQueued`). */
const RECORD_BOUNDARY = '},{"seq":';
const LINE_BOUNDARY = '}\n{"seq":';
/** Written batch buffers kept for reuse (garbage buffers would otherwise pile up between GCs). */
const SPARE_BATCHES = 8;
/** A partly filled batch is written at the latest this long after its first record. */
export const TRACE_FLUSH_MS = 5;

/** Options of a `TraceWriter`. */
export interface TraceWriterOptions {
  /** Called once, with a human-readable message, when the file cannot be opened or written. */
  readonly onError?: (message: string) => void;
  /** Overrides `TRACE_HIGH_WATER_BYTES`. */
  readonly highWaterBytes?: number;
}

/**
 * The trace file: an evidence `TraceSink` that appends the header and then one JSONL line per
 * record, in the order written. `write` only queues the record; the queue is encoded in one go when
 * the tap asks for `backpressure()` (right after it forwarded the frames those records describe, so
 * encoding is off a frame's path), at the latest after `TRACE_FLUSH_MS`. Lines are batched into large
 * writes; when more than the high-water mark is held, `backpressure()` makes the tap wait, so memory
 * stays bounded and nothing is lost.
 * The file is created exclusively with mode 0600 (see private-files.ts): a path that already exists
 * (a file, someone else's file, a symbolic link) is refused, never replaced or followed.
 * If the file cannot be created or written it reports once through `onError`, drops everything
 * after that (counted in `droppedRecords`) and never blocks the tap again.
 */
export class TraceWriter implements TraceSink {
  private readonly stream: WriteStream;
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private batchBytes = 0;
  private queued: TraceRecord[] = [];
  private readonly spare: Buffer[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
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
      // Exclusive and private: traces hold every prompt and file the agent saw.
      flags: "wx",
      mode: PRIVATE_FILE_MODE,
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

  /** Queues one record (encoded later, in order; see the class comment). */
  write(record: TraceRecord): void {
    if (this.failure !== null || this.closing) {
      this.droppedRecords++;
      return;
    }
    this.queued.push(record);
    if (this.queued.length >= MAX_QUEUED_RECORDS) this.encodeQueued();
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    // A timer rather than setImmediate: a quiet session then costs one file write per interval,
    // not one per message, which keeps the tap's round trip close to a direct pipe.
    this.flushTimer ??= setTimeout(this.flushLater, TRACE_FLUSH_MS);
  }

  private readonly flushLater = () => this.flush();

  /**
   * Encodes the queued records, then: a promise while more than the high-water mark is held, `null`
   * otherwise (always `null` once failed).
   */
  backpressure(): Promise<void> | null {
    this.encodeQueued();
    if (!this.congested()) return null;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes what is queued, ends the file and resolves when it is closed (or failed). Never rejects. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.flush();
    this.closing = new Promise((resolve) => {
      // 'close' always follows 'error', so a failure is reported before this resolves.
      if (this.stream.closed) return resolve();
      this.stream.once("close", () => resolve());
      if (!this.stream.destroyed) this.stream.end();
    });
    return this.closing;
  }

  /**
   * Encodes the queued records as lines. Serialising them as one array is much cheaper than one
   * JSON.stringify per record; the array's text becomes JSONL by turning each record boundary
   * `},{"seq":` into `}\n{"seq":`. When every record is stamped `seq` first, the boundaries are
   * exactly where the pattern is outside strings (in a JSON string every `"` is escaped), unless
   * a record nests an object starting with `seq` (none does). A serialised record has no raw
   * newline, so counting newlines proves that only the boundaries were turned; otherwise each
   * record is encoded on its own.
   */
  private encodeQueued(): void {
    const records = this.queued;
    if (records.length === 0) return;
    this.queued = [];
    if (this.failure !== null) {
      this.droppedRecords += records.length;
      return;
    }
    if (records.length > 1 && records.every(stampedFirst)) {
      const lines = JSON.stringify(records).slice(1, -1).replaceAll(RECORD_BOUNDARY, LINE_BOUNDARY);
      let newlines = 0;
      for (let at = lines.indexOf("\n"); at !== -1; at = lines.indexOf("\n", at + 1)) newlines++;
      if (newlines === records.length - 1) {
        this.append(lines);
        return;
      }
    }
    for (const record of records) this.append(JSON.stringify(record));
  }

  /** Adds `text` and a newline to the batch (same bytes as encodeRecord() for one record). */
  private append(text: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8: when that fits, skip measuring the exact size.
    let size = text.length * 3 + 1;
    if (size > BATCH_BYTES - this.batchBytes) {
      size = Buffer.byteLength(text) + 1;
      if (size > BATCH_BYTES - this.batchBytes) {
        this.writeBatch();
        if (size > BATCH_BYTES) {
          this.stream.write(`${text}\n`);
          return;
        }
      }
    }
    this.batchBytes += this.batch.write(text, this.batchBytes);
    this.batch[this.batchBytes++] = 0x0a;
  }

  private flush(): void {
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.encodeQueued();
    this.writeBatch();
  }

  private writeBatch(): void {
    if (this.batchBytes === 0 || this.failure !== null) return;
    const written = this.batch;
    this.batch = this.spare.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
    const length = this.batchBytes;
    this.batchBytes = 0;
    this.stream.write(written.subarray(0, length), (err) => {
      if (!err && this.spare.length < SPARE_BATCHES) this.spare.push(written);
    });
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
    this.failure = `cannot write trace file ${this.path}: ${describeCreateFailure(this.path, err as NodeJS.ErrnoException)}`;
    this.batchBytes = 0;
    this.droppedRecords += this.queued.length;
    this.queued = [];
    this.options.onError?.(this.failure);
    this.wake();
  }
}

/** Whether a record's first field is `seq`, as the fan-out stamps them (so it serialises as `{"seq":`). */
function stampedFirst(record: TraceRecord): boolean {
  for (const key in record) return key === "seq";
  return false;
}
