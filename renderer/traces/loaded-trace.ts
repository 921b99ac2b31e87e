/**
 * One trace the UI can show: a live tap's trace from the hub, or a file imported in this window.
 * It keeps every record it got (for the details pane and exports), runs the incremental analyzer
 * on them, and publishes an immutable `TimelineView` when asked (once per animation frame).
 */
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../shared/analyzer/timeline-model.js";
import { TapLife } from "../../shared/hub/tap-summary.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { applyChanges, EMPTY_VIEW, type RowIndex, type TimelineView } from "./timeline-view.js";

/** One line of agent stderr. */
export interface StderrLine {
  readonly seq: number;
  readonly ts: number;
  readonly text: string;
  /** Written while the connection was being torn down (the conformance suite closing it), not a crash. */
  readonly teardown?: boolean;
}

/** Where a trace came from. */
export type TraceSource = "live" | "imported";

/** A trace's records, analyzer and published view. */
export class LoadedTrace {
  header: TraceHeader | null = null;
  /** True while its tap is attached to the hub. */
  attached = false;
  /** Records the tap's link dropped before the hub got them, and hub ring gaps that hid records. */
  missing = 0;
  readonly records: TraceRecord[] = [];
  readonly stderr: StderrLine[] = [];
  view: TimelineView = EMPTY_VIEW;
  /** Agent pids, connections and the record count of the whole trace (Clear does not reset it). */
  readonly life = new TapLife();
  private lifeSeq = 0;
  private analyzer = new Analyzer();
  private index: RowIndex = new Map();
  private dirty = false;
  private newest = 0;
  private cleared = 0;

  constructor(
    readonly id: string,
    public label: string,
    readonly source: TraceSource,
  ) {}

  /** The seq of the newest record seen, cleared ones included (seqs only grow within a trace). */
  get lastSeq(): number {
    return this.newest;
  }

  /** The seq of the newest record when the user last pressed Clear (0: never): a reload skips records up to it. */
  get clearedThrough(): number {
    return this.cleared;
  }

  /**
   * Makes this (still empty) session forget records up to `seq` like `clear()` did on the one it
   * replaces: a rebuilt trace keeps the user's Clear.
   */
  skipThrough(seq: number): void {
    if (seq <= this.newest) return;
    this.newest = seq;
    this.cleared = seq;
  }

  /** The analyzer's whole model of this trace (live objects: read, never keep or change). */
  timelineModel(): TimelineModel {
    return this.analyzer.model();
  }

  /** Sets the trace header (from the tap's hello or the file's first line). */
  setHeader(header: TraceHeader): void {
    if (this.header) return;
    this.header = header;
    this.analyzer.ingestHeader(header);
    this.dirty = true;
  }

  /** Takes one record; a record at or below the newest seq held (a resend) is skipped. Returns whether it was new. */
  ingest(record: TraceRecord): boolean {
    if (record.seq > this.lifeSeq) {
      this.lifeSeq = record.seq;
      this.life.ingest(record);
    }
    if (record.seq <= this.newest) return false;
    this.newest = record.seq;
    this.records.push(record);
    this.analyzer.ingest(record);
    if (record.type === "agent-stderr")
      this.stderr.push({
        seq: record.seq,
        ts: record.ts,
        text: record.text,
        ...(record.teardown && { teardown: true }),
      });
    this.dirty = true;
    return true;
  }

  /** Publishes the rows changed since the last call as a new view; false when nothing changed. */
  publish(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    this.view = applyChanges(this.view, this.index, this.analyzer.takeChanges(), {
      records: this.records.length,
      stderrLines: this.stderr.length,
    });
    return true;
  }

  /** The record with this seq, if held (binary search: seqs only grow). */
  recordBySeq(seq: number): TraceRecord | undefined {
    const rs = this.records;
    let lo = 0;
    let hi = rs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = rs[mid] as TraceRecord;
      if (r.seq === seq) return r;
      if (r.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * Empties the view (the "Clear" button): records so far are forgotten here and the analyzer
   * starts again with the next record. The hub's trace file keeps everything.
   */
  clear(): void {
    this.cleared = this.newest;
    this.records.length = 0;
    this.stderr.length = 0;
    this.analyzer = new Analyzer();
    if (this.header) this.analyzer.ingestHeader(this.header);
    this.index = new Map();
    this.view = EMPTY_VIEW;
    this.dirty = true;
  }
}
