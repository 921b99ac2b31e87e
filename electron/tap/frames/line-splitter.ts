/** What a `LineSplitter` found in the bytes pushed into it, in stream order. */
export type LineEvent =
  /** A whole line: its exact bytes including the `\n` (none when `terminated` is false: the stream ended first). */
  | { readonly kind: "line"; readonly bytes: Buffer; readonly terminated: boolean }
  /** Bytes of a line too long to hold: forward them now, the line is still going on. */
  | { readonly kind: "oversize-part"; readonly bytes: Buffer }
  /** The long line ended: its first bytes, its full length (without `\n`) and whether a `\n` ended it. */
  | {
      readonly kind: "oversize-end";
      readonly prefix: Buffer;
      readonly bytes: number;
      readonly terminated: boolean;
    };

/** What `LineSplitter.pushRuns` found: `LineEvent`s, and runs of whole lines read in one chunk. */
export type LineRunEvent =
  | LineEvent
  /** Whole lines that arrived together: their exact bytes, each line with its `\n` (so it ends with one). */
  | { readonly kind: "lines"; readonly bytes: Buffer };

/**
 * Splits a byte stream into `\n`-terminated lines without copying whole chunks. A line is held
 * until its newline arrives, but never more than `maxLineBytes` of it: past that the splitter
 * switches to streaming the line's bytes as `oversize-part` events and keeps only a
 * `prefixBytes` prefix, so memory stays bounded whatever the line length.
 */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private oversize: { prefix: Buffer; bytes: number } | null = null;

  constructor(
    private readonly maxLineBytes: number,
    private readonly prefixBytes: number,
  ) {}

  /** Feeds the next chunk; returns what it completed, in order, one event per line. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    for (const ev of this.pushRuns(chunk)) {
      if (ev.kind !== "lines") {
        events.push(ev);
        continue;
      }
      const run = ev.bytes;
      for (let pos = 0; pos < run.length; ) {
        const next = run.indexOf(10, pos) + 1;
        events.push({ kind: "line", bytes: run.subarray(pos, next), terminated: true });
        pos = next;
      }
    }
    return events;
  }

  /**
   * `push`, except that the whole lines found in the chunk itself (after any line its start
   * completes) come as one `lines` run, a view of the chunk: no per-line objects for the common case.
   */
  pushRuns(chunk: Buffer): LineRunEvent[] {
    const events: LineRunEvent[] = [];
    let pos = 0;
    if (this.oversize) {
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        this.growOversize(chunk);
        events.push({ kind: "oversize-part", bytes: chunk });
        return events;
      }
      const part = chunk.subarray(0, nl + 1);
      this.growOversize(part.subarray(0, nl));
      events.push({ kind: "oversize-part", bytes: part });
      events.push({ kind: "oversize-end", ...this.oversize, terminated: true });
      this.oversize = null;
      pos = nl + 1;
    }
    if (this.carryBytes > 0) {
      const nl = chunk.indexOf(10, pos);
      if (nl !== -1) {
        this.carry.push(chunk.subarray(pos, nl + 1));
        const bytes = Buffer.concat(this.carry, this.carryBytes + nl + 1 - pos);
        this.carry = [];
        this.carryBytes = 0;
        events.push({ kind: "line", bytes, terminated: true });
        pos = nl + 1;
      }
    }
    if (this.carryBytes === 0) {
      const last = chunk.lastIndexOf(10);
      if (last >= pos) {
        events.push({
          kind: "lines",
          bytes: pos === 0 && last === chunk.length - 1 ? chunk : chunk.subarray(pos, last + 1),
        });
        pos = last + 1;
      }
    }
    if (pos < chunk.length) {
      const rest = chunk.subarray(pos);
      if (this.carryBytes + rest.length > this.maxLineBytes) {
        this.oversize = { prefix: Buffer.alloc(0), bytes: 0 };
        for (const piece of [...this.carry, rest]) {
          this.growOversize(piece);
          events.push({ kind: "oversize-part", bytes: piece });
        }
        this.carry = [];
        this.carryBytes = 0;
      } else {
        this.carry.push(rest);
        this.carryBytes += rest.length;
      }
    }
    return events;
  }

  /** The stream ended: returns the unterminated tail, if any. */
  end(): LineEvent[] {
    if (this.oversize) {
      const o = this.oversize;
      this.oversize = null;
      return [{ kind: "oversize-end", ...o, terminated: false }];
    }
    if (this.carryBytes === 0) return [];
    const bytes = Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.carryBytes = 0;
    return [{ kind: "line", bytes, terminated: false }];
  }

  private growOversize(piece: Buffer): void {
    const o = this.oversize;
    if (o === null) return;
    const room = this.prefixBytes - o.prefix.length;
    if (room > 0) o.prefix = Buffer.concat([o.prefix, piece.subarray(0, room)]);
    o.bytes += piece.length;
  }
}
