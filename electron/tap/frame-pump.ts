import type { Readable, Writable } from "node:stream";
import type { Direction } from "../../shared/trace/record.js";
import type { TraceFanout } from "../trace/trace-fanout.js";
import {
  type FrameEvidence,
  lineEvidence,
  OVERSIZE_PREFIX_BYTES,
  oversizeEvidence,
} from "./frame-evidence.js";
import type { FramePolicy } from "./frame-policy.js";
import { type LineEvent, LineSplitter } from "./line-splitter.js";

/** Where a `FramePump` reads, writes and records. */
export interface FramePumpOptions {
  readonly source: Readable;
  readonly dest: Writable;
  readonly conn: number;
  readonly dir: Direction;
  readonly trace: TraceFanout;
  /** Lines longer than this are streamed through and recorded as `oversize` prefixes. */
  readonly maxFrameBytes: number;
  readonly policy?: FramePolicy;
  /** Called once, after the source ended and its last line was recorded and forwarded. */
  readonly onEnd: () => void;
  /** Called once if the destination fails (e.g. the peer closed its end); frames are still recorded. */
  readonly onDestError?: (err: Error) => void;
}

/**
 * Moves one direction of a connection line by line: each line is recorded (log), then written
 * (forward), byte for byte and in order. Contiguous lines of one chunk go out in one write. The
 * source is paused while the destination or an evidence sink is full, so memory stays bounded.
 */
export class FramePump {
  private pending: Promise<void> | null = null;
  private destBroken = false;
  private ended = false;
  private corked = false;
  private readonly splitter: LineSplitter;

  constructor(private readonly o: FramePumpOptions) {
    this.splitter = new LineSplitter(o.maxFrameBytes, OVERSIZE_PREFIX_BYTES);
  }

  /** Starts reading the source. */
  start(): void {
    const { source, dest } = this.o;
    dest.on("error", (err) => {
      if (this.destBroken) return;
      this.destBroken = true;
      this.o.onDestError?.(err);
    });
    source.on("data", (chunk: Buffer) => this.enqueue(() => this.run(this.splitter.push(chunk))));
    const finish = () => this.enqueue(() => this.finish());
    source.on("end", finish);
    source.on("error", finish);
    source.on("close", finish);
  }

  /** Stops reading: later bytes from the source are neither recorded nor forwarded. */
  stop(): void {
    this.ended = true;
    this.o.source.removeAllListeners("data");
    this.o.source.pause();
  }

  private finish(): Promise<void> | null {
    if (this.ended) return null;
    this.ended = true;
    const wait = this.run(this.splitter.end());
    if (wait) return wait.then(() => this.o.onEnd());
    this.o.onEnd();
    return null;
  }

  /** Runs work now when nothing is pending (the fast path), else after what is pending; pauses the source meanwhile. */
  private enqueue(work: () => Promise<void> | null): void {
    if (this.pending === null) {
      const wait = work();
      if (wait === null) return;
      this.o.source.pause();
      this.pending = wait;
    } else {
      this.pending = this.pending.then(() => work() ?? undefined);
    }
    const mine = this.pending;
    mine.then(
      () => {
        if (this.pending !== mine) return;
        this.pending = null;
        if (!this.ended) this.o.source.resume();
      },
      () => {},
    );
  }

  private run(events: LineEvent[]): Promise<void> | null {
    if (events.length === 0) return null;
    if (this.o.policy) return this.runWithPolicy(events, this.o.policy);
    let span: Buffer | null = null;
    for (const ev of events) {
      if (ev.kind === "line") {
        this.record(this.evidence(ev));
        if (
          span !== null &&
          span.buffer === ev.bytes.buffer &&
          span.byteOffset + span.length === ev.bytes.byteOffset
        ) {
          span = Buffer.from(span.buffer, span.byteOffset, span.length + ev.bytes.length);
        } else {
          if (span !== null) this.write(span);
          span = ev.bytes;
        }
      } else if (ev.kind === "oversize-part") {
        if (span !== null) this.write(span);
        span = null;
        this.write(ev.bytes);
      } else {
        this.record(oversizeEvidence(ev.prefix, ev.bytes, ev.terminated));
      }
    }
    if (span !== null) this.write(span);
    return this.backpressure();
  }

  private async runWithPolicy(events: LineEvent[], policy: FramePolicy): Promise<void> {
    for (const ev of events) {
      if (ev.kind === "line") {
        const evidence = this.evidence(ev);
        const decision = await policy({
          conn: this.o.conn,
          dir: this.o.dir,
          bytes: ev.bytes,
          text: evidence.encoding ? null : evidence.raw,
        });
        this.record(evidence, decision === "drop");
        if (decision !== "drop") this.write(ev.bytes);
      } else if (ev.kind === "oversize-part") {
        this.write(ev.bytes);
      } else {
        this.record(oversizeEvidence(ev.prefix, ev.bytes, ev.terminated));
      }
      await this.backpressure();
    }
  }

  private evidence(ev: Extract<LineEvent, { kind: "line" }>): FrameEvidence {
    const body = ev.terminated ? ev.bytes.subarray(0, ev.bytes.length - 1) : ev.bytes;
    if (body.length > this.o.maxFrameBytes) {
      return oversizeEvidence(body.subarray(0, OVERSIZE_PREFIX_BYTES), body.length, ev.terminated);
    }
    return lineEvidence(body, ev.terminated);
  }

  private record(evidence: FrameEvidence, dropped = false): void {
    this.o.trace.emit({
      type: "frame",
      conn: this.o.conn,
      dir: this.o.dir,
      ...evidence,
      ...(dropped ? { dropped: true as const } : {}),
    });
  }

  private write(bytes: Buffer): void {
    const { dest } = this.o;
    if (this.destBroken || dest.destroyed) return;
    // Lines that arrive in several reads of one event-loop turn leave in one writev.
    if (!this.corked) {
      this.corked = true;
      dest.cork();
      setImmediate(this.uncork);
    }
    dest.write(bytes);
  }

  private readonly uncork = () => {
    this.corked = false;
    this.o.dest.uncork();
  };

  private backpressure(): Promise<void> | null {
    const { dest, trace } = this.o;
    const traceWait = trace.backpressure();
    const destFull = !this.destBroken && !dest.destroyed && dest.writableNeedDrain;
    if (!destFull) return traceWait;
    const drained = new Promise<void>((resolve) => {
      const done = () => {
        dest.off("drain", done);
        dest.off("close", done);
        dest.off("error", done);
        resolve();
      };
      dest.on("drain", done);
      dest.on("close", done);
      dest.on("error", done);
    });
    return traceWait ? Promise.all([drained, traceWait]).then(() => {}) : drained;
  }
}
