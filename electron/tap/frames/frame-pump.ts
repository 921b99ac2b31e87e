import type { Readable, Writable } from "node:stream";
import type { Direction } from "../../../shared/trace/record.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import {
  classifyLine,
  type FrameEvidence,
  OVERSIZE_PREFIX_BYTES,
  oversizeEvidence,
} from "./frame-evidence.js";
import type { FrameDecision, FrameFate, FramePolicy } from "./frame-policy.js";
import { LineBatch, type LineEvent, LineSplitter } from "./line-splitter.js";

/** Where a `FramePump` reads, writes and records. */
export interface FramePumpOptions {
  readonly source: Readable;
  /** Where lines go; `setDest` replaces it (a restarted agent's stdin). */
  readonly dest: Writable;
  readonly conn: number;
  readonly dir: Direction;
  readonly trace: TraceFanout;
  /** Lines longer than this are streamed through and recorded as `oversize` prefixes. */
  readonly maxFrameBytes: number;
  readonly policy?: FramePolicy;
  /** Called once, after the source ended and its last line was recorded and forwarded. */
  readonly onEnd: () => void;
  /** Called once when the source ends or fails, before the lines still waiting (e.g. behind a held frame) are moved. */
  readonly onSourceEnd?: () => void;
  /** Called once if the destination fails (e.g. the peer closed its end); frames are still recorded. */
  readonly onDestError?: (err: Error) => void;
}

const FORWARD: FrameDecision = "forward";
const FORWARD_FATE: FrameFate = { forward: true };
const DROP_FATE: FrameFate = { forward: false };

/**
 * Moves one direction of a connection line by line: each line is decided (the policy), recorded
 * (log), then written (forward), byte for byte and in order. The lines of one read leave in one
 * write, right after their records were committed to the trace file (one synchronous file write
 * per batch), so a peer never holds a line the file lacks, even after SIGKILL of the tap. The source is paused while a decision is pending, or while the destination or an
 * evidence sink is full, so memory stays bounded.
 */
export class FramePump {
  private readonly splitter: LineSplitter;
  private readonly out = new LineBatch(
    () => {
      const { dest } = this;
      return this.destBroken || dest.destroyed || dest.writableEnded ? null : dest;
    },
    // Record before forward: the records of what is about to be written reach the file first.
    () => this.o.trace.commit(),
  );
  private dest: Writable;
  private destBroken = false;
  /** The source ended (its tail is the last read) or `stop` was called. */
  private ended = false;
  /** `onEnd` is due once the reads still waiting are moved. */
  private endDue = false;
  /** A read is being moved asynchronously (a decision or backpressure is pending); the source is paused. */
  private busy = false;
  /** The reads that came in meanwhile, in order. */
  private readonly waiting: LineEvent[][] = [];

  constructor(private readonly o: FramePumpOptions) {
    this.splitter = new LineSplitter(o.maxFrameBytes, OVERSIZE_PREFIX_BYTES);
    this.dest = o.dest;
  }

  /** Starts reading the source. */
  start(): void {
    const { source } = this.o;
    this.watchDest(this.dest);
    source.on("data", (chunk: Buffer) => this.take(this.splitter.push(chunk)));
    const finish = () => {
      if (this.ended) return;
      this.ended = true;
      this.o.onSourceEnd?.();
      this.endDue = true;
      this.take(this.splitter.end());
    };
    source.on("end", finish);
    source.on("error", finish);
    source.on("close", finish);
  }

  /** Sends later lines to `dest` instead (the stdin of a restarted agent). */
  setDest(dest: Writable): void {
    this.out.flush();
    this.dest = dest;
    this.destBroken = false;
    this.watchDest(dest);
  }

  /** Stops reading: later bytes from the source are neither recorded nor forwarded. */
  stop(): void {
    this.ended = true;
    this.o.source.removeAllListeners("data");
    this.o.source.pause();
  }

  private watchDest(dest: Writable): void {
    dest.on("error", (err) => {
      if (this.destBroken || dest !== this.dest) return;
      this.destBroken = true;
      this.o.onDestError?.(err);
    });
  }

  /** Moves the lines of one read now, or after the reads still waiting. */
  private take(lines: LineEvent[]): void {
    if (this.busy) {
      this.waiting.push(lines);
      return;
    }
    const wait = this.move(lines, 0);
    if (wait !== null) this.wait(wait);
    else this.settled();
  }

  /** Pauses the source until `wait` and the reads that came in meanwhile are moved. */
  private wait(wait: Promise<void>): void {
    this.busy = true;
    this.o.source.pause();
    void wait.then(() => {
      const next = this.waiting.shift();
      if (next !== undefined) return this.wait(this.move(next, 0) ?? Promise.resolve());
      this.busy = false;
      if (!this.ended) this.o.source.resume();
      this.settled();
    });
  }

  /** Nothing is pending: calls `onEnd` once if the source ended. */
  private settled(): void {
    if (!this.endDue) return;
    this.endDue = false;
    this.out.flush();
    this.o.onEnd();
  }

  /**
   * The tap's loop: for each line from `from` on, decide, record, then write. Returns `null` when
   * every decision was immediate and nothing needs to drain, else a promise of the rest.
   */
  private move(lines: LineEvent[], from: number): Promise<void> | null {
    const { conn, dir, trace, policy } = this.o;
    for (let i = from; i < lines.length; i++) {
      const line = lines[i] as LineEvent;
      if (line.kind === "line") {
        const { evidence, frame } = classifyLine(line.bytes, line.terminated);
        const text = evidence.encoding ? null : evidence.raw;
        const decision = policy ? policy.decide({ conn, dir, bytes: line.bytes, text, frame }) : FORWARD;
        if (decision instanceof Promise) {
          this.out.send();
          return decision.then((d) => {
            const held = this.apply(line.bytes, evidence, d);
            return (held ?? Promise.resolve()).then(() => this.move(lines, i + 1) ?? undefined);
          });
        }
        const held = this.apply(line.bytes, evidence, decision);
        if (held) {
          this.out.send();
          return held.then(() => this.move(lines, i + 1) ?? undefined);
        }
      } else if (line.kind === "oversize-part") {
        this.out.add(line.bytes);
      } else {
        trace.emitFrame(conn, dir, oversizeEvidence(line.prefix, line.bytes, line.terminated));
      }
    }
    this.out.send();
    return this.backpressure();
  }

  /**
   * Records a line as decided, then adds its bytes to what this read forwards (unless swallowed).
   * A held line is recorded now and its bytes added once its hold is released: the promise returned.
   */
  private apply(bytes: Buffer, evidence: FrameEvidence, decision: FrameDecision): Promise<void> | null {
    const fate = decision === "forward" ? FORWARD_FATE : decision === "drop" ? DROP_FATE : decision;
    const fields = fate.hold
      ? { ...evidence, held: true as const }
      : fate.forward
        ? evidence
        : fate.mark === "tap" || fate.mark === "inspector"
          ? { ...evidence, origin: fate.mark }
          : { ...evidence, dropped: true as const };
    const record = this.o.trace.emitFrame(this.o.conn, this.o.dir, fields);
    fate.recorded?.(record.seq);
    if (fate.hold)
      return fate.hold.then((released) => {
        if (released && fate.forward) this.out.add(bytes);
      });
    if (fate.forward) this.out.add(bytes);
    else if (fate.rewritten) {
      const { raw, replaces } = fate.rewritten;
      this.o.trace.emitFrame(this.o.conn, this.o.dir, {
        raw,
        origin: "inspector",
        replaces,
        copyOf: record.seq,
      });
      this.out.add(Buffer.from(`${raw}\n`));
    }
    return null;
  }

  private backpressure(): Promise<void> | null {
    const traceWait = this.o.trace.backpressure();
    const { dest } = this;
    if (this.destBroken || dest.destroyed || !dest.writableNeedDrain) return traceWait;
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
