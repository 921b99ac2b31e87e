/**
 * One trace's span export, pure: records in (an analyzer runs on them), span steps out. The tap and
 * the hub each run one per trace and hand the steps to an OpenTelemetry SDK (electron/otel/).
 */
import { Analyzer } from "../analyzer/analyzer.js";
import type { TraceHeader, TraceRecord } from "../trace/record.js";
import { SkippableFrames } from "./skippable-frames.js";
import type { SpanOp } from "./span-description.js";
import type { MappingOptions } from "./span-mapping.js";
import { SpanPlanner } from "./span-planner.js";

/** Analyzes one trace's records and plans its spans. */
export class TraceSpans {
  private readonly analyzer = new Analyzer();
  private readonly planner: SpanPlanner;
  private readonly skip: SkippableFrames | null;
  private ops: SpanOp[] = [];
  /** After a dropped frame, its fault record follows: closes wait for it (see `take`). */
  private holdCloses = false;

  /** `analyzeEveryFrame` turns the skipping of Agent notifications off (tests compare both ways). */
  constructor(
    header: TraceHeader | null,
    options: Omit<MappingOptions, "tapName">,
    analyzeEveryFrame = false,
  ) {
    this.skip = analyzeEveryFrame ? null : new SkippableFrames();
    if (header) this.analyzer.ingestHeader(header);
    const tapName = header?.name;
    this.planner = new SpanPlanner(tapName === undefined ? options : { ...options, tapName });
  }

  /**
   * Takes the next record (in seq order). Cheap to call per record: rows are read in `take`, and
   * an Agent notification no span depends on is not analyzed at all (skippable-frames.ts).
   */
  ingest(record: TraceRecord): void {
    this.planner.observe(record);
    this.holdCloses = record.type === "frame" && record.dropped === true;
    if (record.type === "frame" && this.skip?.skippable(record)) return;
    if (record.type === "agent-exit" || record.type === "fault") {
      // The event goes to the submissions open at this point, so bring the rows up to it first.
      this.collect();
      for (const op of this.planner.lifecycle(record)) {
        // An event for a span closed by the rows just collected goes in before that close.
        const close =
          op.op === "event" ? this.ops.findIndex((o) => o.op === "close" && o.ref === op.ref) : -1;
        if (close >= 0) this.ops.splice(close, 0, op);
        else this.ops.push(op);
      }
    }
    this.analyzer.ingest(record);
    // A Client frame may bring a key: learn it now, before the Agent's next frames are judged.
    if (record.type === "frame" && record.dir === "client->agent") this.collect();
  }

  /**
   * Takes at once a frame no span depends on (an Agent's streamed chunk) when no step waits for
   * `take`, and says so; false: `ingest` it, in order with the records before it. The tap calls
   * this for each record, so a stream of chunks costs one text check each and nothing more.
   */
  skipNow(record: TraceRecord): boolean {
    if (this.holdCloses || this.ops.length > 0 || record.type !== "frame" || !this.skip?.skippable(record))
      return false;
    this.planner.observe(record);
    return true;
  }

  /**
   * A frame the caller found skippable itself (the tap's thread, electron/otel/tap-skip-filter.ts)
   * and did not send, by its `ts`: the same as `ingest` of that frame, which would skip it.
   */
  passed(ts: number): void {
    this.planner.observe({ type: "frame", seq: 0, ts, conn: 0, dir: "agent->client", raw: "" });
    this.holdCloses = false;
  }

  /** The steps for everything ingested since the previous call. */
  take(): SpanOp[] {
    this.collect();
    const out = this.ops;
    this.ops = [];
    if (this.holdCloses) {
      // The fault record of the dropped frame comes next and must land on the span before it ends.
      this.ops = out.filter((o) => o.op === "close");
      return out.filter((o) => o.op !== "close");
    }
    return out;
  }

  /** The trace ended (at its last record's time unless `endTime`): the remaining steps, every open span closed. */
  finish(endTime?: number): SpanOp[] {
    this.collect();
    this.ops.push(...this.planner.finish(endTime));
    this.holdCloses = false;
    return this.take();
  }

  private collect(): void {
    const c = this.analyzer.takeChanges();
    if (this.skip) for (const s of c.submissions) if (s.key !== null) this.skip.learnKey(s.key);
    if (c.submissions.length > 0 || c.requests.length > 0) this.ops.push(...this.planner.changes(c));
  }
}
