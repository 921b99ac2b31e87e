import { createReadStream, type ReadStream } from "node:fs";
import { decodeHeader, parseRecordLine } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { describeInvalid, InvalidRecord } from "../../shared/trace/record-check.js";

/** One item read from a trace file, in file order. */
export type TraceReadEvent =
  | { readonly kind: "header"; readonly header: TraceHeader }
  | { readonly kind: "record"; readonly record: TraceRecord; readonly line: number }
  /**
   * A record with a wrong field (shared/trace/record-check.ts), kept as its entry; `message` says
   * what is wrong, so a reader that treats it as a problem line still says why.
   */
  | {
      readonly kind: "invalid";
      readonly line: number;
      readonly invalid: InvalidRecord;
      readonly message: string;
      readonly truncated: false;
    }
  /**
   * A line that could not be read; `truncated` when it is the unterminated last line (a tap killed
   * mid-write); `oversize` (its length in bytes) when it is longer than the reader's cap and was
   * skipped unread (it stays in the file as it is).
   */
  | {
      readonly kind: "problem";
      readonly line: number;
      readonly message: string;
      readonly truncated: boolean;
      readonly oversize?: number;
    };

/** Thrown when the file cannot be read at all (missing, unreadable, not a trace). */
export class TraceReadError extends Error {}

/**
 * The longest record line the reader reads whole, in bytes (256 MiB). A longer line is reported as
 * an `oversize` problem with its line number and skipped (its text is dropped as it streams by,
 * never held whole), and the rest of the file is read: docs/trace-format.md#reading-line-length.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** How `readTrace` reads. */
export interface ReadTraceOptions {
  /** Read only the file's first `bytes` (its size at some moment). */
  readonly bytes?: number;
  /** The line cap (default `MAX_LINE_BYTES`); tests pass a small one. */
  readonly maxLineBytes?: number;
}

/**
 * Streams a trace file line by line with bounded memory. Bad lines are reported as `problem`
 * events, records with a wrong field as `invalid` events, never thrown; a half-written last line is reported as truncated and the
 * rest of the file is kept. `options.bytes` reads only the file's first bytes (its size at some
 * moment), so two passes over a trace that is still growing see the same lines. A line costs time
 * linear in its length and at most about twice its length in memory while it is joined and parsed;
 * a line over `options.maxLineBytes` (default `MAX_LINE_BYTES`) is an `oversize` problem, not read.
 */
export function readTrace(
  path: string,
  options: ReadTraceOptions = {},
): AsyncIterableIterator<TraceReadEvent> {
  return new TraceFileReader(path, options.bytes, options.maxLineBytes ?? MAX_LINE_BYTES);
}

/**
 * The iterator behind `readTrace`. A line already in the buffer is decoded and handed out without
 * going through an async function (an async generator costs a few hundred ns per line, which is
 * noticeable over millions of lines); the stream is awaited only when the buffer holds no full line.
 * A line longer than a chunk is kept as the list of its pieces and joined once, when its newline
 * comes: each byte is scanned and copied a fixed number of times, whatever the line's length.
 */
class TraceFileReader implements AsyncIterableIterator<TraceReadEvent> {
  private readonly stream: ReadStream;
  private readonly chunks: AsyncIterator<string>;
  /** The chunk being cut into lines, and where the next line starts in it. */
  private chunk = "";
  private start = 0;
  /** The earlier pieces of a line that began in an earlier chunk, and their length in bytes. */
  private pieces: string[] = [];
  private pieceBytes = 0;
  /** The line being gathered is over the cap: its pieces are counted, not kept. */
  private skipping = false;
  private lineNo = 0;
  private sawHeader = false;
  private finished = false;
  /** True when asked for a prefix of zero bytes: the file reads as empty. */
  private readonly noBytes: boolean;

  constructor(
    private readonly path: string,
    bytes: number | undefined,
    private readonly maxLineBytes: number,
  ) {
    // `end` is inclusive, so a zero-byte prefix is read as the first byte and then cut off by `nextChunk`.
    this.stream = createReadStream(path, {
      encoding: "utf8",
      highWaterMark: 1 << 20,
      ...(bytes !== undefined && { end: Math.max(0, bytes - 1) }),
    });
    this.noBytes = bytes === 0;
    this.chunks = (this.stream as AsyncIterable<string>)[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<TraceReadEvent>> {
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    try {
      const ev = this.bufferedLine();
      if (ev !== undefined) return Promise.resolve({ value: ev, done: false });
    } catch (err) {
      this.close();
      return Promise.reject(err);
    }
    return this.read();
  }

  return(): Promise<IteratorResult<TraceReadEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Reads chunks until one holds the end of a line, or the file ends. */
  private async read(): Promise<IteratorResult<TraceReadEvent>> {
    try {
      for (;;) {
        const chunk = await this.nextChunk();
        if (chunk === undefined) return this.end();
        this.chunk = chunk;
        this.start = 0;
        const ev = this.bufferedLine();
        if (ev !== undefined) return { value: ev, done: false };
      }
    } catch (err) {
      this.close();
      throw err;
    }
  }

  private async nextChunk(): Promise<string | undefined> {
    try {
      const r = await this.chunks.next();
      return r.done || this.noBytes ? undefined : r.value;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new TraceReadError(`cannot read trace file ${this.path}: ${code ?? (err as Error).message}`);
    }
  }

  /**
   * The event of the next line that ends in the current chunk, or undefined when it holds no more
   * newline: what is left of the chunk is then set aside as a piece of the next line.
   */
  private bufferedLine(): TraceReadEvent | undefined {
    const nl = this.chunk.indexOf("\n", this.start);
    if (nl === -1) {
      this.setAside(this.start === 0 ? this.chunk : this.chunk.slice(this.start));
      this.chunk = "";
      this.start = 0;
      return undefined;
    }
    const tail = this.chunk.slice(this.start, nl);
    this.start = nl + 1;
    return this.lineEnds(tail, false);
  }

  /** Keeps a piece of a line whose newline has not come yet, or only counts it once the line is over the cap. */
  private setAside(piece: string): void {
    if (piece.length === 0) return;
    this.pieceBytes += Buffer.byteLength(piece);
    if (this.skipping) return;
    if (this.pieceBytes > this.maxLineBytes) {
      this.skipping = true;
      this.pieces = [];
    } else this.pieces.push(piece);
  }

  /** A line ended with `tail` (its newline, or the end of the file): its event. */
  private lineEnds(tail: string, last: boolean): TraceReadEvent {
    if (this.pieces.length === 0 && !this.skipping) {
      // A line within one chunk: a UTF-16 unit is at most 3 bytes of UTF-8, so most need no count.
      if (tail.length * 3 > this.maxLineBytes) {
        const bytes = Buffer.byteLength(tail);
        if (bytes > this.maxLineBytes) return this.oversize(bytes, last);
      }
      return this.decode(tail, last);
    }
    const bytes = this.pieceBytes + Buffer.byteLength(tail);
    const over = this.skipping || bytes > this.maxLineBytes;
    let line = "";
    if (!over) {
      this.pieces.push(tail);
      line = this.pieces.join("");
    }
    this.pieces = [];
    this.pieceBytes = 0;
    this.skipping = false;
    return over ? this.oversize(bytes, last) : this.decode(line, last);
  }

  /** The file ended: its unterminated last line, if any, then done. */
  private end(): IteratorResult<TraceReadEvent> {
    this.close();
    const rest = this.chunk.slice(this.start);
    this.chunk = "";
    this.start = 0;
    if (rest.length > 0 || this.pieces.length > 0 || this.skipping)
      return { value: this.lineEnds(rest, true), done: false };
    if (this.lineNo === 0) throw new TraceReadError(`not a trace file: ${this.path} is empty`);
    return { value: undefined, done: true };
  }

  /** A line over the cap: reported by its number and length, its text never held whole. */
  private oversize(bytes: number, last: boolean): TraceReadEvent {
    const lineNo = ++this.lineNo;
    const what = `line of ${bytes} bytes is over the reader's ${this.maxLineBytes}-byte cap: skipped unread (it stays in the file)`;
    if (lineNo === 1) throw new TraceReadError(`not a trace file: its first ${what}`);
    if (!this.sawHeader) throw new TraceReadError("not a trace file: no header");
    return { kind: "problem", line: lineNo, message: what, truncated: last, oversize: bytes };
  }

  private decode(line: string, last: boolean): TraceReadEvent {
    const lineNo = ++this.lineNo;
    if (lineNo === 1) {
      const d = decodeHeader(line);
      if (d.kind !== "header")
        throw new TraceReadError(`not a trace file: ${d.kind === "problem" ? d.message : "no header"}`);
      this.sawHeader = true;
      return d;
    }
    if (!this.sawHeader) throw new TraceReadError("not a trace file: no header");
    const r = parseRecordLine(line);
    if (typeof r !== "string") {
      if (!(r instanceof InvalidRecord)) return { kind: "record", record: r, line: lineNo };
      return { kind: "invalid", line: lineNo, invalid: r, message: describeInvalid(r), truncated: false };
    }
    if (last)
      return { kind: "problem", line: lineNo, message: `truncated last line (${r})`, truncated: true };
    return { kind: "problem", line: lineNo, message: r, truncated: false };
  }

  private close(): void {
    this.finished = true;
    this.stream.destroy();
  }
}
