import { createReadStream, type ReadStream, statSync } from "node:fs";
import { open } from "node:fs/promises";
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

const NEWLINE = 0x0a;
/**
 * Up to this many bytes a line that spans chunks keeps its pieces (most such lines are a chunk
 * boundary's; reading them again would cost a file open per MiB); a longer line in a regular file is
 * read again by its offset instead.
 */
const KEEP_PIECES_BYTES = 8 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

/**
 * Lets go of the memory of `buf` (ours alone, from `allocUnsafeSlow`) now rather than at V8's next
 * full collection: the buffer has lived across awaits, so its wrapper is old; transferred, its bytes
 * belong to a new, young wrapper that the next scavenge frees. Without this a 250 MB line peaked at
 * 3.1x its length (its bytes, its text and the parsed record at once), with it 2.2x.
 */
function release(buf: Buffer): void {
  structuredClone(buf.buffer, { transfer: [buf.buffer] });
}

/** Whether `path` is a regular file (which can be read again by offset), not a pipe or a device. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

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
 * linear in its length and at most about twice its length in memory while it is decoded and parsed;
 * a line over `options.maxLineBytes` (default `MAX_LINE_BYTES`) is an `oversize` problem, not read.
 */
export function readTrace(
  path: string,
  options: ReadTraceOptions = {},
): AsyncIterableIterator<TraceReadEvent> {
  return new TraceFileReader(path, options.bytes, options.maxLineBytes ?? MAX_LINE_BYTES);
}

/**
 * The iterator behind `readTrace`. The file is read as bytes, 1 MiB at a time; the complete lines of
 * a chunk are decoded as one string and handed out without going through an async function (an async
 * generator costs a few hundred ns per line, which is noticeable over millions of lines); the stream is
 * awaited only when no full line is buffered. A line over `KEEP_PIECES_BYTES` is only measured as it
 * streams by; when its newline comes it is read again from the file, by its offset, into one buffer of
 * its now known length and decoded once, so the line is held at most twice (its bytes, then its text;
 * then its text and the parsed record), never beside a list of its pieces: a 250 MB line peaked at 3.1x
 * its length with the pieces kept, 2.2x now (docs/benchmarks.md). A file that cannot be read by
 * offset (a pipe) keeps the pieces. Each byte is scanned and copied a fixed number of times, whatever
 * the line's length.
 */
class TraceFileReader implements AsyncIterableIterator<TraceReadEvent> {
  private readonly stream: ReadStream;
  private readonly chunks: AsyncIterator<Buffer>;
  /** The chunk being cut into lines, and where its bytes not yet decoded start. */
  private bytes: Buffer = EMPTY;
  private pos = 0;
  /** The decoded complete lines of the chunk (each ends with its newline), and where the next starts. */
  private text = "";
  private start = 0;
  /** Where in the file the current chunk starts. */
  private chunkAt = 0;
  /** Where in the file the line being gathered starts (it began in an earlier chunk), or -1. */
  private lineAt = -1;
  /** That line's earlier byte pieces (kept only when the file cannot be read by offset), and their length. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Whether a long line can be read again by its offset (a regular file) instead of kept in pieces. */
  private readonly seekable: boolean;
  /** The line being gathered is past `KEEP_PIECES_BYTES` in a regular file: it will be read again, its pieces are not kept. */
  private rereading = false;
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
      highWaterMark: 1 << 20,
      ...(bytes !== undefined && { end: Math.max(0, bytes - 1) }),
    });
    this.noBytes = bytes === 0;
    this.seekable = isRegularFile(path);
    this.chunks = (this.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
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
        if (chunk === undefined) return await this.end();
        const ev = await this.take(chunk);
        if (ev !== undefined) return { value: ev, done: false };
      }
    } catch (err) {
      this.close();
      throw err;
    }
  }

  private async nextChunk(): Promise<Buffer | undefined> {
    try {
      const r = await this.chunks.next();
      return r.done || this.noBytes ? undefined : r.value;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new TraceReadError(`cannot read trace file ${this.path}: ${code ?? (err as Error).message}`);
    }
  }

  /** A new chunk: ends the line being gathered if its newline is here, else decodes the chunk's lines. */
  private async take(chunk: Buffer): Promise<TraceReadEvent | undefined> {
    this.chunkAt += this.bytes.length;
    if (this.lineAt !== -1) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.bytes = chunk;
        this.pos = chunk.length;
        this.setAside(chunk, 0);
        return undefined;
      }
      this.cut(chunk, nl + 1);
      return await this.longLineEnds(chunk.subarray(0, nl), false);
    }
    this.cut(chunk, 0);
    return this.bufferedLine();
  }

  /**
   * Makes `chunk` from `from` the one being cut: its complete lines are decoded together (a newline
   * byte is never inside a UTF-8 sequence, so no character is split), the rest waits for its newline.
   */
  private cut(chunk: Buffer, from: number): void {
    const last = chunk.lastIndexOf(NEWLINE);
    this.bytes = chunk;
    this.text = last >= from ? chunk.toString("utf8", from, last + 1) : "";
    this.start = 0;
    this.pos = last >= from ? last + 1 : from;
  }

  /**
   * The event of the next line decoded from the current chunk, or undefined when it holds no more:
   * the chunk's bytes after its last newline are then set aside as a piece of the next line.
   */
  private bufferedLine(): TraceReadEvent | undefined {
    const nl = this.text.indexOf("\n", this.start);
    if (nl !== -1) {
      const line = this.text.slice(this.start, nl);
      this.start = nl + 1;
      return this.shortLine(line, false);
    }
    this.text = "";
    this.start = 0;
    if (this.pos < this.bytes.length) this.setAside(this.bytes, this.pos);
    this.pos = this.bytes.length;
    return undefined;
  }

  /**
   * `chunk` from `from` is a piece of a line whose newline has not come yet: counted, and kept only
   * when the line cannot be read again by its offset and is not over the cap.
   */
  private setAside(chunk: Buffer, from: number): void {
    if (from >= chunk.length) return;
    if (this.lineAt === -1) this.lineAt = this.chunkAt + from;
    this.pieceBytes += chunk.length - from;
    if (this.skipping) return;
    if (this.pieceBytes > this.maxLineBytes) {
      this.skipping = true;
      this.pieces = [];
    } else if (this.rereading) return;
    else if (this.seekable && this.pieceBytes > KEEP_PIECES_BYTES) {
      this.rereading = true;
      this.pieces = [];
    } else this.pieces.push(from === 0 ? chunk : chunk.subarray(from));
  }

  /** A line that was decoded whole from one chunk: its event. */
  private shortLine(line: string, last: boolean): TraceReadEvent {
    // a UTF-16 unit is at most 3 bytes of UTF-8, so most lines need no count
    if (line.length * 3 > this.maxLineBytes) {
      const bytes = Buffer.byteLength(line);
      if (bytes > this.maxLineBytes) return this.oversize(bytes, last);
    }
    return this.decode(line, last);
  }

  /** A line gathered from pieces ended with `tail` (before its newline, or at the end of the file): its event. */
  private async longLineEnds(tail: Buffer, last: boolean): Promise<TraceReadEvent> {
    const bytes = this.pieceBytes + tail.length;
    const over = this.skipping || bytes > this.maxLineBytes;
    const at = this.lineAt;
    const rereading = this.rereading;
    this.lineAt = -1;
    this.pieceBytes = 0;
    this.skipping = false;
    this.rereading = false;
    if (over) {
      this.pieces = [];
      return this.oversize(bytes, last);
    }
    const line = rereading ? await this.readAgain(at, bytes) : this.joinPieces(tail, bytes);
    if (line === null) {
      const lineNo = ++this.lineNo;
      const message = `line of ${bytes} bytes changed in the file while it was read: skipped`;
      return { kind: "problem", line: lineNo, message, truncated: last };
    }
    return this.decode(line, last);
  }

  /** The `bytes` bytes at `at` in the file, decoded once; `null` if the file no longer has them. */
  private async readAgain(at: number, bytes: number): Promise<string | null> {
    const whole = Buffer.allocUnsafeSlow(bytes);
    let fh: Awaited<ReturnType<typeof open>> | undefined;
    try {
      fh = await open(this.path, "r");
      let got = 0;
      while (got < bytes) {
        const { bytesRead } = await fh.read(whole, got, bytes - got, at + got);
        if (bytesRead === 0) return null;
        got += bytesRead;
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new TraceReadError(`cannot read trace file ${this.path}: ${code ?? (err as Error).message}`);
    } finally {
      await fh?.close();
    }
    const line = whole.indexOf(NEWLINE) === -1 ? whole.toString("utf8") : null;
    release(whole);
    return line;
  }

  /** The kept pieces and `tail` as one string: copied into one buffer of the line's length, then decoded once. */
  private joinPieces(tail: Buffer, bytes: number): string {
    const whole = Buffer.allocUnsafeSlow(bytes);
    let at = 0;
    for (const p of this.pieces) at += p.copy(whole, at);
    tail.copy(whole, at);
    this.pieces = [];
    const line = whole.toString("utf8");
    release(whole);
    return line;
  }

  /** The file ended: its unterminated last line, if any, then done. */
  private async end(): Promise<IteratorResult<TraceReadEvent>> {
    this.close();
    if (this.pos < this.bytes.length) this.setAside(this.bytes, this.pos);
    this.chunkAt += this.bytes.length;
    this.bytes = EMPTY;
    this.pos = 0;
    if (this.lineAt !== -1) return { value: await this.longLineEnds(EMPTY, true), done: false };
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
