import { closeSync, openSync, writeSync } from "node:fs";
import { encodeHeader } from "../../shared/trace/codec.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { describeCreateFailure, PRIVATE_FILE_MODE } from "./private-files.js";
import type { TraceSink } from "./trace-sink.js";

/** Records are encoded straight into a buffer of this size, written with one call when full or committed. */
const BATCH_BYTES = 256 * 1024;
/** Records held unencoded at most; past that they are encoded at once. */
const MAX_QUEUED_RECORDS = 1024;
/** Where one record ends and the next begins in `JSON.stringify([r1, r2, ...])` (see `encodeQueued`). */
const RECORD_BOUNDARY = '},{"seq":';
const LINE_BOUNDARY = '}\n{"seq":';
/**
 * The UTF-16 units JSON.stringify writes other than as themselves in a string: `"`, `\`, control
 * characters and surrogates (a lone one is escaped; a pair, kept, is sent the slow way too).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Records nobody committed (lifecycle records, a caller that never commits) are written at the latest this long after the first. */
export const TRACE_FLUSH_MS = 5;

/** Options of a `TraceWriter`. */
export interface TraceWriterOptions {
  /** Called once, with a human-readable message, when the file cannot be opened or written. */
  readonly onError?: (message: string) => void;
}

/**
 * The trace file: an evidence `TraceSink` that appends the header and then one JSONL line per
 * record, in the order written. `write` only queues the record; `commit()` encodes the queue in
 * one go and hands the lines to the kernel with a synchronous write before it returns: the tap
 * commits right before it forwards the lines those records describe (once per batch of lines, at
 * most twice per event-loop turn), so what a peer received is in the file even after SIGKILL of
 * the tap. Records nobody commits are written at the latest after `TRACE_FLUSH_MS`. Nothing is
 * fsynced: a machine crash may lose what the kernel had not yet put on the disk.
 * The writes being synchronous, a slow disk holds the tap up at once (it reads nothing meanwhile),
 * so memory stays bounded and nothing is lost; `backpressure()` is always `null`.
 * The file is created exclusively with mode 0600 (see private-files.ts): a path that already exists
 * (a file, someone else's file, a symbolic link) is refused, never replaced or followed.
 * If the file cannot be created or written it reports once through `onError` (from the
 * constructor when it cannot be created), drops everything after that (counted in
 * `droppedRecords`) and never blocks the tap.
 */
export class TraceWriter implements TraceSink {
  private fd: number | null = null;
  private readonly batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private batchBytes = 0;
  private queued: TraceRecord[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private failure: string | null = null;
  private closing: Promise<void> | null = null;
  /** Records accepted after the file failed (so not written). */
  droppedRecords = 0;

  constructor(
    readonly path: string,
    header: TraceHeader,
    private readonly options: TraceWriterOptions = {},
  ) {
    try {
      // Exclusive and private: traces hold every prompt and file the agent saw.
      this.fd = openSync(path, "wx", PRIVATE_FILE_MODE);
    } catch (err) {
      this.fail(err as NodeJS.ErrnoException);
      return;
    }
    this.writeOut(Buffer.from(encodeHeader(header)));
  }

  /** The error message once the file failed, else `null`. */
  get failed(): string | null {
    return this.failure;
  }

  /** Queues one record (encoded and written on `commit`, or soon; see the class comment). */
  write(record: TraceRecord): void {
    if (this.failure !== null || this.closing) {
      this.droppedRecords++;
      return;
    }
    this.queued.push(record);
    if (this.queued.length >= MAX_QUEUED_RECORDS) this.encodeQueued();
    // A timer rather than setImmediate: records nobody commits then cost one file write per
    // interval, not one per record.
    this.flushTimer ??= setTimeout(this.flushLater, TRACE_FLUSH_MS);
  }

  private readonly flushLater = () => {
    this.flushTimer = null;
    this.commit();
  };

  /** Encodes the queued records and writes them (and what is batched) to the file before returning. */
  commit(): void {
    this.encodeQueued();
    this.writeBatch();
  }

  /** Always `null`: every write is synchronous, so the disk holds the tap up by itself. */
  backpressure(): null {
    return null;
  }

  /** Writes what is queued and closes the file. Never rejects. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.commit();
    this.closeFile();
    this.closing = Promise.resolve();
    return this.closing;
  }

  /**
   * Encodes the queued records as lines. A batch of plain frame records (the hot path: a line
   * forwarded as is) is written from a template, only `raw` going through JSON.stringify, each
   * line's pieces put into the batch one after the other (see `isPlainFrame`). Otherwise, serialising the records as one array is
   * much cheaper than one JSON.stringify per record; the array's text becomes JSONL by turning each
   * record boundary `},{"seq":` into `}\n{"seq":`. When every record is stamped `seq` first, the
   * boundaries are exactly where the pattern is outside strings (in a JSON string every `"` is
   * escaped), unless a record nests an object starting with `seq` (none does). A serialised record
   * has no raw newline, so counting newlines proves that only the boundaries were turned; otherwise
   * each record is encoded on its own.
   */
  private encodeQueued(): void {
    const records = this.queued;
    if (records.length === 0) return;
    this.queued = [];
    if (this.failure !== null) {
      this.droppedRecords += records.length;
      return;
    }
    if (records.every(isPlainFrame)) {
      // Each line goes into the batch in pieces: joining them first would make the big frames'
      // text twice more (a joined string, then its flat copy), garbage that grows V8's young heap.
      for (const record of records) {
        const { seq, ts, conn, dir, raw } = record as FrameRecord;
        this.appendFrame(`{"seq":${seq},"ts":${ts},"type":"frame","conn":${conn},"dir":"${dir}","raw":`, raw);
      }
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
          this.writeOut(Buffer.from(`${text}\n`));
          return;
        }
      }
    }
    this.batchBytes += this.batch.write(text, this.batchBytes);
    this.batch[this.batchBytes++] = 0x0a;
  }

  /**
   * Adds a plain frame record's line to the batch: `head` (its fields up to `"raw":`), `raw` as a
   * JSON string, `}` and a newline, each put into the batch in turn, never joined into one string.
   * A `raw` JSON.stringify would not change but for its quotes is written as is between quotes,
   * so a big frame's text is not copied into a new string at all: what V8's young generation
   * would otherwise hold twice over per frame (issue 36 item 5).
   */
  private appendFrame(head: string, raw: string): void {
    const escaped = NEEDS_ESCAPING.test(raw);
    const body = escaped ? JSON.stringify(raw) : raw;
    const quotes = escaped ? 0 : 2;
    // As in `append`: at most 3 UTF-8 bytes per UTF-16 unit, measured exactly only when it matters.
    let size = (head.length + body.length) * 3 + quotes + 2;
    if (size > BATCH_BYTES - this.batchBytes) {
      size = Buffer.byteLength(head) + Buffer.byteLength(body) + quotes + 2;
      if (size > BATCH_BYTES - this.batchBytes) {
        this.writeBatch();
        if (size > BATCH_BYTES) {
          this.writeOut(Buffer.from(escaped ? `${head}${body}}\n` : `${head}"${body}"}\n`));
          return;
        }
      }
    }
    const { batch } = this;
    let at = this.batchBytes + batch.write(head, this.batchBytes);
    if (!escaped) batch[at++] = 0x22;
    at += batch.write(body, at);
    if (!escaped) batch[at++] = 0x22;
    batch[at++] = 0x7d;
    batch[at++] = 0x0a;
    this.batchBytes = at;
  }

  private writeBatch(): void {
    if (this.batchBytes === 0) return;
    const length = this.batchBytes;
    this.batchBytes = 0;
    this.writeOut(this.batch, length);
  }

  /** Writes the first `length` bytes of `bytes` to the file now (a regular file: write(2) returns once the kernel has them). */
  private writeOut(bytes: Buffer, length = bytes.length): void {
    const { fd } = this;
    if (fd === null || this.failure !== null) return;
    try {
      for (let at = 0; at < length; ) at += writeSync(fd, bytes, at, length - at);
    } catch (err) {
      this.fail(err as NodeJS.ErrnoException);
    }
  }

  private closeFile(): void {
    const { fd } = this;
    this.fd = null;
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch (err) {
      this.fail(err as NodeJS.ErrnoException);
    }
  }

  private fail(err: NodeJS.ErrnoException): void {
    if (this.failure !== null) return;
    this.failure = `cannot write trace file ${this.path}: ${describeCreateFailure(this.path, err)}`;
    this.batchBytes = 0;
    this.droppedRecords += this.queued.length;
    this.queued = [];
    this.closeFile();
    this.options.onError?.(this.failure);
  }
}

/** The fields of a plain frame record (a line forwarded as is), in the order `TraceFanout.emitFrame` sets them. */
const PLAIN_FRAME_KEYS = ["seq", "ts", "type", "conn", "dir", "raw"] as const;

/**
 * Whether `record` is a plain frame record: exactly the fields `PLAIN_FRAME_KEYS` in that order,
 * finite numbers, a known direction and a string `raw`. Its line is then written from a template
 * (`encodeQueued`): the text is the same as JSON.stringify's (a finite number serialises as its
 * string; the direction needs no escaping), so only `raw` is stringified.
 */
function isPlainFrame(record: TraceRecord): boolean {
  if (record.type !== "frame") return false;
  let at = 0;
  for (const key in record) {
    if (key !== PLAIN_FRAME_KEYS[at]) return false;
    at++;
  }
  const { seq, ts, conn, dir, raw } = record;
  if (at !== PLAIN_FRAME_KEYS.length || typeof raw !== "string") return false;
  if (!Number.isFinite(seq) || !Number.isFinite(ts) || !Number.isFinite(conn)) return false;
  return dir === "agent->client" || dir === "client->agent";
}

/** Whether a record's first field is `seq`, as the fan-out stamps them (so it serialises as `{"seq":`). */
function stampedFirst(record: TraceRecord): boolean {
  for (const key in record) return key === "seq";
  return false;
}
