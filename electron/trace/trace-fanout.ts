import type { Direction, FrameRecord, TraceRecord } from "../../shared/trace/record.js";
import type { RecordSequencer } from "./record-sequencer.js";
import type { TraceSink } from "./trace-sink.js";

/** A record before the fan-out stamps it with `seq` and `ts`. */
export type UnstampedRecord = TraceRecord extends infer R
  ? R extends TraceRecord
    ? Omit<R, "seq" | "ts">
    : never
  : never;

/** The bytes-derived and marking fields of a frame record, for `TraceFanout.emitFrame`. */
export type FrameFields = Pick<
  FrameRecord,
  "raw" | "encoding" | "flags" | "bytes" | "dropped" | "held" | "origin" | "replaces" | "copyOf"
>;

type MutableFrameRecord = { -readonly [K in keyof FrameRecord]: FrameRecord[K] };

/**
 * Stamps records in the order they are produced and hands each to every sink. A sink that throws
 * is detached (reported once through `onSinkError`), so a broken sink never stops the tap.
 * Record before forward: whoever forwards bytes calls `commit()` first (the frame pumps do, once
 * per batch of lines), so the records of those bytes are in the trace file before the bytes leave.
 * A frame the tap writes itself (`origin` set: a replayed `initialize`, an inspector retry, a
 * swallowed or rewritten answer) is committed as it is emitted, since it is written on outside
 * any pump.
 */
export class TraceFanout {
  private sinks: TraceSink[];
  private closing = false;

  constructor(
    readonly sequencer: RecordSequencer,
    sinks: readonly TraceSink[],
    private readonly onSinkError: (message: string) => void = () => {},
  ) {
    this.sinks = [...sinks];
  }

  /** Adds a sink (e.g. a live link); it sees records from now on. */
  attach(sink: TraceSink): void {
    this.sinks.push(sink);
  }

  /** Stamps one record and hands it to every sink; returns the stamped record. */
  emit(record: UnstampedRecord): TraceRecord {
    const stamped = { seq: this.sequencer.nextSeq(), ts: this.sequencer.now(), ...record } as TraceRecord;
    this.hand(stamped);
    if (stamped.type === "frame" && stamped.origin !== undefined) this.commit();
    return stamped;
  }

  /**
   * `emit` for a frame record, built flat in `FrameRecord` field order without copying `fields`
   * (the hot path: one call per line). Returns the stamped record.
   */
  emitFrame(conn: number, dir: Direction, fields: FrameFields): FrameRecord {
    const record: MutableFrameRecord = {
      seq: this.sequencer.nextSeq(),
      ts: this.sequencer.now(),
      type: "frame",
      conn,
      dir,
      raw: fields.raw,
    };
    if (fields.encoding !== undefined) record.encoding = fields.encoding;
    if (fields.flags !== undefined) record.flags = fields.flags;
    if (fields.bytes !== undefined) record.bytes = fields.bytes;
    if (fields.dropped !== undefined) record.dropped = fields.dropped;
    if (fields.held !== undefined) record.held = fields.held;
    if (fields.origin !== undefined) record.origin = fields.origin;
    if (fields.replaces !== undefined) record.replaces = fields.replaces;
    if (fields.copyOf !== undefined) record.copyOf = fields.copyOf;
    this.hand(record);
    if (fields.origin !== undefined) this.commit();
    return record;
  }

  /**
   * Has every evidence sink hand the records emitted so far to the kernel before it returns (see
   * `TraceSink.commit`). Call it right before writing bytes those records describe to a peer.
   */
  commit(): void {
    for (const sink of this.sinks) {
      if (sink.commit === undefined) continue;
      try {
        sink.commit();
      } catch (err) {
        this.detach(sink, err);
      }
    }
  }

  private hand(record: TraceRecord): void {
    for (const sink of this.sinks) {
      try {
        sink.write(record);
      } catch (err) {
        this.detach(sink, err);
      }
    }
  }

  /** `null` when every sink can take more, else a promise that resolves when all can. */
  backpressure(): Promise<void> | null {
    const waits: Promise<void>[] = [];
    for (const sink of this.sinks) {
      const w = sink.backpressure();
      if (w) waits.push(w);
    }
    if (waits.length === 0) return null;
    return Promise.all(waits).then(() => {});
  }

  /** True once `close` was called: records emitted from then on are not written. */
  get closed(): boolean {
    return this.closing;
  }

  /** Closes every sink (flushing the file); resolves when all are closed. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.sinks.map((s) => s.close().catch(() => {})));
  }

  private detach(sink: TraceSink, err: unknown): void {
    this.sinks = this.sinks.filter((s) => s !== sink);
    this.onSinkError(
      `a trace sink failed and was detached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
