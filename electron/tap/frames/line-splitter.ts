import type { Writable } from "node:stream";

/** What a `LineSplitter` found in the bytes pushed into it, in stream order. */
export type LineEvent =
  /** A whole line: its exact bytes including the `\n` (none when `terminated` is false: the stream ended first). */
  | { readonly kind: "line"; readonly bytes: Buffer; readonly terminated: boolean }
  /** Bytes of a line too long to hold: forward them now. */
  | { readonly kind: "oversize-part"; readonly bytes: Buffer }
  /** The long line ended: its first bytes, its full length (without `\n`) and whether a `\n` ended it. */
  | {
      readonly kind: "oversize-end";
      readonly prefix: Buffer;
      readonly bytes: number;
      readonly terminated: boolean;
    };

/**
 * Splits a byte stream into `\n`-terminated lines, each a view of the chunk it came in (a line
 * that spans chunks is joined). A line is held until its newline arrives, but never more than
 * `maxLineBytes` of it: a longer line comes as `oversize-part`s to forward as they arrive and an
 * `oversize-end` with a `prefixBytes` prefix, so memory stays bounded whatever the line length.
 */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private oversize: { prefix: Buffer; bytes: number } | null = null;

  constructor(
    private readonly maxLineBytes: number,
    private readonly prefixBytes: number,
  ) {}

  /** Feeds the next chunk; returns what it completed, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let pos = 0;
    if (this.oversize) {
      const nl = chunk.indexOf(10);
      const part = nl === -1 ? chunk : chunk.subarray(0, nl + 1);
      this.growOversize(nl === -1 ? chunk : part.subarray(0, nl));
      events.push({ kind: "oversize-part", bytes: part });
      if (nl === -1) return events;
      events.push({ kind: "oversize-end", ...this.oversize, terminated: true });
      this.oversize = null;
      pos = nl + 1;
    }
    for (let nl = chunk.indexOf(10, pos); nl !== -1; nl = chunk.indexOf(10, pos)) {
      const length = this.carryBytes + nl - pos;
      // A read holding one whole line (a request, its answer) is that line: no view of it to make.
      const piece = pos === 0 && nl + 1 === chunk.length ? chunk : chunk.subarray(pos, nl + 1);
      pos = nl + 1;
      if (length > this.maxLineBytes) {
        this.oversize = { prefix: Buffer.alloc(0), bytes: 0 };
        for (const held of this.carry) this.growOversize(held);
        this.growOversize(piece.subarray(0, piece.length - 1));
        for (const bytes of [...this.carry, piece]) events.push({ kind: "oversize-part", bytes });
        events.push({ kind: "oversize-end", ...this.oversize, terminated: true });
        this.oversize = null;
      } else if (this.carryBytes === 0) {
        events.push({ kind: "line", bytes: piece, terminated: true });
      } else {
        this.carry.push(piece);
        events.push({ kind: "line", bytes: Buffer.concat(this.carry, length + 1), terminated: true });
      }
      this.carry = [];
      this.carryBytes = 0;
    }
    if (pos < chunk.length) {
      const rest = chunk.subarray(pos);
      this.carry.push(rest);
      this.carryBytes += rest.length;
      if (this.carryBytes > this.maxLineBytes) {
        this.oversize = { prefix: Buffer.alloc(0), bytes: 0 };
        for (const bytes of this.carry) {
          this.growOversize(bytes);
          events.push({ kind: "oversize-part", bytes });
        }
        this.carry = [];
        this.carryBytes = 0;
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

/** Where a `LineBatch` writes: a `Writable`, or `null` while it cannot take writes (broken, ended). */
export type BatchTarget = () => Writable | null;

/**
 * The bytes a pump forwards, batched: the lines of a chunk that follow each other leave as one
 * view of it, and the reads of one event-loop turn together. The first `send` of a turn writes at
 * once (a lone line, a request or its answer, is not held back); later ones in the same turn are
 * corked in the destination (so they count for its backpressure) and leave together when the turn
 * ends. `beforeWrite` runs right before each send hands its bytes to the destination (once per
 * send, whatever it holds), so the tap commits their records to the trace file first.
 * The turn's end is an unreferenced immediate until something is corked: a lone line (a request,
 * its answer) then costs no extra non-blocking poll of the event loop, one `epoll_wait` per round
 * trip; once bytes are corked the immediate is referenced, so the loop does not block before they
 * leave.
 */
export class LineBatch {
  private head: Buffer | null = null;
  private headEnd = 0;
  private readonly held: Buffer[] = [];
  private turn = false;
  /** The end of the current turn, referenced only while bytes are corked. */
  private turnEnd: NodeJS.Immediate | null = null;
  private corked: Writable | null = null;

  constructor(
    private readonly target: BatchTarget,
    private readonly beforeWrite: () => void = () => {},
  ) {}

  /** Adds the next bytes to forward. */
  add(bytes: Buffer): void {
    const head = this.head;
    if (head !== null && bytes.buffer === head.buffer && bytes.byteOffset === this.headEnd) {
      this.headEnd += bytes.length;
      return;
    }
    if (head !== null) this.held.push(this.headView(head));
    this.head = bytes;
    this.headEnd = bytes.byteOffset + bytes.length;
  }

  /** Writes what was added: at once if this is the first send of the turn, else corked until the turn ends. */
  send(): void {
    const head = this.head;
    if (head === null) return;
    this.head = null;
    this.held.push(this.headView(head));
    const dest = this.target();
    if (dest !== null) {
      this.beforeWrite();
      if (this.turn && this.corked === null) {
        this.corked = dest;
        dest.cork();
        this.turnEnd?.ref();
      }
      for (const bytes of this.held) dest.write(bytes);
    }
    this.held.length = 0;
    if (!this.turn) {
      this.turn = true;
      this.turnEnd = setImmediate(this.endTurn).unref();
    }
  }

  /** Writes what was added and what is corked now (before the destination changes or ends). */
  flush(): void {
    this.send();
    this.uncork();
  }

  private readonly endTurn = () => {
    this.turn = false;
    this.turnEnd = null;
    this.uncork();
  };

  private uncork(): void {
    this.corked?.uncork();
    this.corked = null;
  }

  private headView(head: Buffer): Buffer {
    const length = this.headEnd - head.byteOffset;
    return length === head.length ? head : Buffer.from(head.buffer, head.byteOffset, length);
  }
}
