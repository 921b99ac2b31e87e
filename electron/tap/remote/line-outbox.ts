import { Writable } from "node:stream";

/** Longest partial line an outbox holds while waiting for its `\n` (the SDK's message cap). */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

/**
 * The tap's line stream turned into messages: a `Writable` that cuts what the pump writes at `\n`
 * and hands each line's exact text (without the `\n`) to `send`, one message per line. The pump
 * writes whole lines, so nothing waits here except the parts of an oversize line.
 */
export class LineOutbox extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly send: (line: string) => void) {
    super({ decodeStrings: true });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    let start = 0;
    let nl = chunk.indexOf(10, start);
    while (nl >= 0) {
      const piece = chunk.subarray(start, nl);
      const line =
        this.pending.length === 0
          ? piece
          : Buffer.concat([...this.pending, piece], this.pendingBytes + piece.length);
      this.pending = [];
      this.pendingBytes = 0;
      try {
        this.send(line.toString("utf8"));
      } catch (err) {
        done(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_PENDING_BYTES) {
        done(new Error("a line longer than 32 MiB cannot be sent as one message"));
        return;
      }
    }
    done();
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    done: (error?: Error | null) => void,
  ): void {
    this._write(Buffer.concat(chunks.map((c) => c.chunk)), "utf8", done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.pendingBytes > 0) {
      const rest = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      try {
        this.send(rest.toString("utf8"));
      } catch {}
    }
    done();
  }
}
