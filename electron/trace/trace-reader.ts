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
  /** A line that could not be read; `truncated` when it is the unterminated last line (a tap killed mid-write). */
  | {
      readonly kind: "problem";
      readonly line: number;
      readonly message: string;
      readonly truncated: boolean;
    };

/** Thrown when the file cannot be read at all (missing, unreadable, not a trace). */
export class TraceReadError extends Error {}

/**
 * Streams a trace file line by line with bounded memory. Bad lines are reported as `problem`
 * events, records with a wrong field as `invalid` events, never thrown; a half-written last line is reported as truncated and the
 * rest of the file is kept. `options.bytes` reads only the file's first bytes (its size at some
 * moment), so two passes over a trace that is still growing see the same lines.
 */
export function readTrace(
  path: string,
  options: { readonly bytes?: number } = {},
): AsyncIterableIterator<TraceReadEvent> {
  return new TraceFileReader(path, options.bytes);
}

/**
 * The iterator behind `readTrace`. A line already in the buffer is decoded and handed out without
 * going through an async function (an async generator costs a few hundred ns per line, which is
 * noticeable over millions of lines); the stream is awaited only when the buffer holds no full line.
 */
class TraceFileReader implements AsyncIterableIterator<TraceReadEvent> {
  private readonly stream: ReadStream;
  private readonly chunks: AsyncIterator<string>;
  private pending = "";
  /** Where the next line starts in `pending`, and where to look for its newline. */
  private start = 0;
  private from = 0;
  private lineNo = 0;
  private sawHeader = false;
  private finished = false;
  /** True when asked for a prefix of zero bytes: the file reads as empty. */
  private readonly noBytes: boolean;

  constructor(
    private readonly path: string,
    bytes: number | undefined,
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
        // Only the new text can hold a newline: scanning from there keeps a long line linear.
        this.pending = this.pending.slice(this.start) + chunk;
        this.from -= this.start;
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

  /** The event of the next full line in the buffer, or undefined when the buffer holds none. */
  private bufferedLine(): TraceReadEvent | undefined {
    const nl = this.pending.indexOf("\n", this.from);
    if (nl === -1) {
      this.from = this.pending.length;
      return undefined;
    }
    const line = this.pending.slice(this.start, nl);
    this.start = nl + 1;
    this.from = this.start;
    return this.decode(line, false);
  }

  /** The file ended: its unterminated last line, if any, then done. */
  private end(): IteratorResult<TraceReadEvent> {
    this.close();
    const rest = this.pending.slice(this.start);
    this.pending = "";
    if (rest.length > 0) return { value: this.decode(rest, true), done: false };
    if (this.lineNo === 0) throw new TraceReadError(`not a trace file: ${this.path} is empty`);
    return { value: undefined, done: true };
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
