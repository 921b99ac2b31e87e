/**
 * One trace the UI can show: a live tap's trace from the hub, or a file imported in this window.
 * It keeps every record it got (for the details pane and exports), runs the incremental analyzer
 * on them, and publishes an immutable `TimelineView` when asked (once per animation frame).
 */
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import { TapLife } from "../../../shared/hub/tap-summary.js";
import type { AgentSpanRecord, TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { checkRecord, InvalidRecord, invalidRecord } from "../../../shared/trace/record-check.js";
import { applyChanges, EMPTY_VIEW, type RowIndex, type TimelineView } from "./timeline-view.js";

/** One line of agent stderr. */
export interface StderrLine {
  readonly seq: number;
  readonly ts: number;
  readonly text: string;
  /** Written while the connection was being torn down (the conformance suite closing it), not a crash. */
  readonly teardown?: boolean;
}

/** How many seqs of records left out for their seq the banner names (all are counted). */
export const SEQ_ISSUES_NAMED = 20;

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
  /**
   * What this trace got that is not a valid record, kept flagged in arrival order: invalid records
   * (record-check.ts), unreadable lines of an imported file, and an imported file's records whose
   * seq repeats or goes back (left out of the analysis).
   */
  readonly flagged: InvalidRecord[] = [];
  /** Records left out for a repeated or decreasing seq, and the first `SEQ_ISSUES_NAMED` of their seqs. */
  seqIssues = 0;
  readonly seqIssueSeqs: number[] = [];
  readonly stderr: StderrLine[] = [];
  /** The agent's own spans (`proxy --collect-agent-telemetry`), in arrival order. */
  readonly agentSpans: AgentSpanRecord[] = [];
  view: TimelineView = EMPTY_VIEW;
  /** Agent pids, connections and the record count of the whole trace (Clear does not reset it). */
  readonly life = new TapLife();
  private lifeSeq = 0;
  private analyzer = new Analyzer();
  private index: RowIndex = new Map();
  private dirty = false;
  private newest = 0;
  private cleared = 0;
  private importEnded = false;
  private importWaiters: (() => void)[] = [];

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
   * Makes this (still empty) trace forget records up to `seq` like `clear()` did on the one it
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

  /** True once an import has given its last record (its rows are published in the same frame). */
  get imported(): boolean {
    return this.importEnded;
  }

  /** An import gave its last record. */
  endImport(): void {
    this.importEnded = true;
    for (const resolve of this.importWaiters.splice(0)) resolve();
  }

  /** True once an import has given its last record (`endImport`); false while it is still reading. */
  get importDone(): boolean {
    return this.importEnded;
  }

  /** Resolves once an import has given its last record (`endImport`). */
  whenImported(): Promise<void> {
    if (this.importEnded) return Promise.resolve();
    return new Promise((resolve) => this.importWaiters.push(resolve));
  }

  /** Sets the trace header (from the tap's hello or the file's first line). */
  setHeader(header: TraceHeader): void {
    if (this.header) return;
    this.header = header;
    try {
      this.analyzer.ingestHeader(header);
    } catch {
      // A header the analysis cannot read leaves the records to be shown without it.
    }
    this.dirty = true;
  }

  /**
   * Takes one record as it arrived (a hub event's record, an imported line's decoding), checked here:
   * an invalid one is kept in `flagged`. A record at or below the newest seq held is a resend of a
   * live trace and skipped; in an imported file it is flagged as a repeated or decreasing seq.
   * Returns whether it was a new valid record. Never throws. `checked`: `value` is a record or an
   * entry `decodeLines` made, whose `parseRecordLine` ran the same check already (an import).
   */
  ingest(value: unknown, checked = false): boolean {
    const record =
      checked || value instanceof InvalidRecord ? (value as TraceRecord | InvalidRecord) : checkRecord(value);
    if (record instanceof InvalidRecord) {
      this.flagged.push(record);
      this.analyzer.ingestInvalid(record);
      this.dirty = true;
      return false;
    }
    if (record.seq > this.lifeSeq) {
      this.lifeSeq = record.seq;
      this.life.ingest(record);
    }
    if (record.seq <= this.newest) {
      if (this.source === "imported") this.flagSeq(record);
      return false;
    }
    this.newest = record.seq;
    this.records.push(record);
    try {
      this.analyzer.ingest(record);
    } catch (err) {
      // One record the analysis fails on is shown flagged; the page and the other records go on (issue 31).
      const why = `the analysis failed on it (${err instanceof Error ? err.name : "error"}): left out of the verdicts`;
      this.flagged.push(invalidRecord(record, [{ field: "record", reason: why }]));
    }
    if (record.type === "agent-stderr")
      this.stderr.push({
        seq: record.seq,
        ts: record.ts,
        text: record.text,
        ...(record.teardown && { teardown: true }),
      });
    else if (record.type === "agent-span") this.agentSpans.push(record);
    this.dirty = true;
    return true;
  }

  private flagSeq(record: TraceRecord): void {
    const how =
      record.seq === this.newest ? "repeats the seq before it" : `goes back (after seq ${this.newest})`;
    this.flagged.push(invalidRecord(record, [{ field: "seq", reason: `${how}: left out of the analysis` }]));
    this.analyzer.ingest(record);
    if (this.seqIssueSeqs.length < SEQ_ISSUES_NAMED) this.seqIssueSeqs.push(record.seq);
    this.seqIssues++;
    this.dirty = true;
  }

  /** Publishes the rows changed since the last call as a new view; false when nothing changed. */
  publish(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    this.view = applyChanges(this.view, this.index, this.analyzer.takeChanges(), {
      records: this.records.length,
      stderrLines: this.stderr.length,
      flagged: this.flagged.length,
      seqIssues: this.seqIssues,
      seqIssueSeqs: this.seqIssueSeqs.slice(),
    });
    return true;
  }

  /**
   * The record with this seq, if held. Seqs only grow, by at least 1 a record, so it is at most
   * `seq - first seq` records in: that one first (a trace without gaps has it there, so the
   * search text of a million-frame trace's rows needs no binary search), then a binary search up to it.
   */
  recordBySeq(seq: number): TraceRecord | undefined {
    const rs = this.records;
    const first = rs[0];
    if (first === undefined) return undefined;
    let lo = 0;
    let hi = Math.min(rs.length - 1, seq - first.seq);
    const guess = rs[hi];
    if (guess?.seq === seq) return guess;
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
    this.agentSpans.length = 0;
    this.flagged.length = 0;
    this.seqIssues = 0;
    this.seqIssueSeqs.length = 0;
    this.analyzer = new Analyzer();
    if (this.header) this.analyzer.ingestHeader(this.header);
    this.index = new Map();
    this.view = EMPTY_VIEW;
    this.dirty = true;
  }
}
