import { isAscii } from "node:buffer";
import type { Readable, Writable } from "node:stream";
import type { Frame } from "../../../shared/protocol/frame.js";
import type { Direction } from "../../../shared/trace/record.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import {
  classifiedLine,
  classifiedSplitLine,
  classifiedText,
  type FrameEvidence,
  OVERSIZE_PREFIX_BYTES,
  oversizeEvidence,
} from "./frame-evidence.js";
import type { FrameDecision, FramePolicy, TapFrame } from "./frame-policy.js";
import { type LineEvent, type LineRunEvent, LineSplitter } from "./line-splitter.js";

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
  private wroteThisTurn = false;
  private corked = false;
  private readonly splitter: LineSplitter;
  private dest: Writable;

  constructor(private readonly o: FramePumpOptions) {
    this.splitter = new LineSplitter(o.maxFrameBytes, OVERSIZE_PREFIX_BYTES);
    this.dest = o.dest;
  }

  /** Starts reading the source. */
  start(): void {
    const { source } = this.o;
    this.watchDest(this.dest);
    source.on("data", (chunk: Buffer) => this.enqueue(() => this.run(this.splitter.pushRuns(chunk))));
    const finish = () => this.enqueue(() => this.finish());
    source.on("end", finish);
    source.on("error", finish);
    source.on("close", finish);
  }

  /** Sends later lines to `dest` instead (the stdin of a restarted agent). */
  setDest(dest: Writable): void {
    if (this.corked) {
      this.corked = false;
      this.dest.uncork();
    }
    this.dest = dest;
    this.destBroken = false;
    this.watchDest(dest);
  }

  private watchDest(dest: Writable): void {
    dest.on("error", (err) => {
      if (this.destBroken || dest !== this.dest) return;
      this.destBroken = true;
      this.o.onDestError?.(err);
    });
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

  private run(events: LineRunEvent[]): Promise<void> | null {
    if (events.length === 0) return null;
    const { policy } = this.o;
    if (policy?.active()) return this.runWithPolicy(events, policy);
    const observe = policy?.observe ? policy : undefined;
    // Frames shown to `observe` once they are on their way (bookkeeping needs no place on their path).
    const seen: TapFrame[] | null = observe ? [] : null;
    for (const ev of events) {
      if (ev.kind === "lines") {
        this.recordRun(ev.bytes, seen);
        this.write(ev.bytes);
      } else if (ev.kind === "line") {
        const { evidence, frame } = this.evidence(ev);
        this.record(evidence);
        seen?.push({
          conn: this.o.conn,
          dir: this.o.dir,
          bytes: ev.bytes,
          text: evidence.encoding ? null : evidence.raw,
          frame,
        });
        this.write(ev.bytes);
      } else if (ev.kind === "oversize-part") {
        this.write(ev.bytes);
      } else {
        this.o.trace.emitFrame(this.o.conn, this.o.dir, oversizeEvidence(ev.prefix, ev.bytes, ev.terminated));
      }
    }
    if (seen !== null) for (const f of seen) observe?.observe?.(f);
    return this.backpressure();
  }

  /**
   * Records each line of a run (whole lines read together), in order. Text that is all ASCII is
   * decoded once for the run and each line's `raw` is a slice of it; otherwise each line is
   * checked and decoded on its own.
   */
  private recordRun(run: Buffer, seen: TapFrame[] | null): void {
    const { conn, dir, maxFrameBytes } = this.o;
    const text = isAscii(run) ? run.toString("latin1") : null;
    for (let start = 0; start < run.length; ) {
      const nl = text !== null ? text.indexOf("\n", start) : run.indexOf(10, start);
      const { evidence, frame } =
        nl - start > maxFrameBytes
          ? {
              evidence: oversizeEvidence(
                run.subarray(start, start + Math.min(nl - start, OVERSIZE_PREFIX_BYTES)),
                nl - start,
                true,
              ),
              frame: null,
            }
          : text !== null
            ? classifiedText(text.slice(start, nl), true, run, start)
            : classifiedLine(run.subarray(start, nl), true);
      this.record(evidence);
      seen?.push(new RunLine(conn, dir, run, start, nl + 1, evidence.encoding ? null : evidence.raw, frame));
      start = nl + 1;
    }
  }

  private async runWithPolicy(events: LineRunEvent[], policy: FramePolicy): Promise<void> {
    for (const ev of events) {
      if (ev.kind === "lines") {
        const run = ev.bytes;
        for (let start = 0; start < run.length; ) {
          const next = run.indexOf(10, start) + 1;
          await this.decideLine({ kind: "line", bytes: run.subarray(start, next), terminated: true }, policy);
          start = next;
        }
      } else if (ev.kind === "line") {
        await this.decideLine(ev, policy);
      } else if (ev.kind === "oversize-part") {
        this.write(ev.bytes);
        await this.backpressure();
      } else {
        this.o.trace.emitFrame(this.o.conn, this.o.dir, oversizeEvidence(ev.prefix, ev.bytes, ev.terminated));
        await this.backpressure();
      }
    }
  }

  /** The policy's way for one whole line: decide, record as decided, forward (or not). */
  private async decideLine(ev: Extract<LineEvent, { kind: "line" }>, policy: FramePolicy): Promise<void> {
    const { evidence, frame } = this.evidence(ev);
    const tapFrame = {
      conn: this.o.conn,
      dir: this.o.dir,
      bytes: ev.bytes,
      text: evidence.encoding ? null : evidence.raw,
      frame,
    };
    const pending = policy.decide(tapFrame);
    const decision: FrameDecision = pending instanceof Promise ? await pending : pending;
    if (decision === "forward") {
      this.record(evidence);
      this.write(ev.bytes);
    } else if (decision === "drop") {
      this.record(evidence, "dropped");
    } else {
      const seq = this.record(evidence, decision.forward ? undefined : (decision.mark ?? "dropped"));
      decision.recorded?.(seq);
      if (decision.forward) this.write(ev.bytes);
    }
    await this.backpressure();
  }

  private evidence(ev: Extract<LineEvent, { kind: "line" }>): {
    evidence: FrameEvidence;
    frame: Frame | null;
  } {
    const length = ev.terminated ? ev.bytes.length - 1 : ev.bytes.length;
    if (length > this.o.maxFrameBytes) {
      const evidence = oversizeEvidence(
        ev.bytes.subarray(0, Math.min(length, OVERSIZE_PREFIX_BYTES)),
        length,
        ev.terminated,
      );
      return { evidence, frame: null };
    }
    return classifiedSplitLine(ev.bytes, ev.terminated);
  }

  /** Emits the record of a whole line; returns its seq. */
  private record(evidence: FrameEvidence, mark?: "dropped" | "tap"): number {
    const fields =
      mark === "dropped"
        ? { ...evidence, dropped: true as const }
        : mark === "tap"
          ? { ...evidence, origin: "tap" as const }
          : evidence;
    return this.o.trace.emitFrame(this.o.conn, this.o.dir, fields).seq;
  }

  private write(bytes: Buffer): void {
    const { dest } = this;
    if (this.destBroken || dest.destroyed) return;
    // The first write of an event-loop turn leaves at once, so a lone line (a request, its answer)
    // is not held back; later writes of the same turn (lines arriving in several reads of one turn)
    // are corked and leave together when the turn ends.
    if (!this.corked) {
      if (!this.wroteThisTurn) {
        dest.write(bytes);
        this.wroteThisTurn = true;
        setImmediate(this.endTurn);
        return;
      }
      this.corked = true;
      dest.cork();
    }
    dest.write(bytes);
  }

  private readonly endTurn = () => {
    this.wroteThisTurn = false;
    if (!this.corked) return;
    this.corked = false;
    this.dest.uncork();
  };

  private backpressure(): Promise<void> | null {
    const { trace } = this.o;
    const { dest } = this;
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

/** A line of a run as `observe` sees it; its own `bytes` view is made only if asked for. */
class RunLine implements TapFrame {
  constructor(
    readonly conn: number,
    readonly dir: Direction,
    private readonly run: Buffer,
    private readonly start: number,
    private readonly end: number,
    readonly text: string | null,
    readonly frame: Frame | null,
  ) {}

  get bytes(): Buffer {
    return this.run.subarray(this.start, this.end);
  }
}
