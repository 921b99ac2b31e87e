/**
 * The span planner: the analyzer's changed rows and lifecycle records in, span steps out. A
 * submission's root span opens with its first attempt and closes when its verdict settles (or when
 * the trace ends); each attempt and each other request becomes a span once it has an outcome.
 */
import type { Attempt, RequestRow, Submission, TimelineChanges } from "../analyzer/timeline-model.js";
import { ErrorCode } from "../protocol/error-codes.js";
import type { AgentExitRecord, FaultRecord, TraceRecord } from "../trace/record.js";
import type { SpanOp } from "./span-description.js";
import {
  attemptSpan,
  lifecycleEvent,
  type MappingOptions,
  requestSpan,
  submissionEnd,
  submissionStart,
} from "./span-mapping.js";

interface RootState {
  readonly ref: number;
  readonly sessionId: string | null;
  readonly conns: Set<number>;
  readonly startTime: number;
  /** The latest copy of the row, while the root is open. */
  row: Submission;
  /** Request seqs of the attempts already exported. */
  readonly emitted: Set<number>;
  /** Set once the root span closed. */
  endTime: number | null;
}

/**
 * When a submission's verdict has settled: no attempt is pending and the Client has its answer
 * (its own attempt's, or one the inspector forwarded under its id: `clientSaw`). A keyed submission
 * waits for an insert or a cancel the Client saw (after an error or a lost answer the Client may
 * still retry with the key); an unkeyed or invalid-key one settles on any answer the Client saw.
 */
export function submissionSettled(s: Submission): boolean {
  if (s.attempts.length === 0 || s.attempts.some((a) => a.agentEffect.kind === "pending")) return false;
  if (!s.clientAnswered) return false;
  if (s.keyStatus !== "valid") return true;
  return s.attempts.some((a) => {
    if (a.sender.kind !== "client") return false;
    const saw = a.clientSaw;
    if (saw.kind === "answer") return true;
    if (saw.kind === "forwarded") return saw.code === null || saw.code === ErrorCode.RequestCancelled;
    return saw.kind === "error" && saw.code === ErrorCode.RequestCancelled;
  });
}

/** Turns one trace's analysis into span steps; feed it every record (`observe`) and every change set. */
export class SpanPlanner {
  private nextRef = 1;
  private lastTs = 0;
  private readonly roots = new Map<number, RootState>();
  /** Requests without an outcome yet, by row id (their latest copy). */
  private readonly pendingRequests = new Map<number, RequestRow>();
  private readonly emittedRequests = new Set<number>();
  /** `ts` of the non-frame records (a lost outcome names the record that lost it). */
  private readonly tsOfSeq = new Map<number, number>();
  /** Seqs of frames the tap wrote itself (`origin: "tap"`). */
  private readonly tapFrames = new Set<number>();

  constructor(private readonly options: MappingOptions) {}

  /** Notes what a record tells beyond the analyzer's rows (its time, a tap origin). Call before the analyzer ingests it. */
  observe(record: TraceRecord): void {
    this.lastTs = record.ts;
    if (record.type !== "frame" || record.dropped) this.tsOfSeq.set(record.seq, record.ts);
    if (record.type === "frame" && record.origin === "tap") this.tapFrames.add(record.seq);
  }

  /** The steps for the rows changed since the previous change set. */
  changes(c: Pick<TimelineChanges, "submissions" | "requests">): SpanOp[] {
    const ops: SpanOp[] = [];
    for (const s of c.submissions) this.submission(s, ops);
    for (const r of c.requests) this.request(r, ops);
    return ops;
  }

  /**
   * An Agent exit or an applied fault: an event on every open submission it can touch (all of
   * them, or those on its connection when it names one), or a span of its own when none is open.
   */
  lifecycle(r: AgentExitRecord | FaultRecord): SpanOp[] {
    const event = lifecycleEvent(r);
    const ops: SpanOp[] = [];
    // A fault on an attempt's own frame belongs to that submission, even if the frame just settled it.
    const owner = r.type === "fault" && r.frameSeq !== undefined ? this.ownerOf(r.frameSeq) : undefined;
    if (owner) return [{ op: "event", ref: owner.ref, event }];
    for (const root of this.roots.values()) {
      if (root.endTime !== null) continue;
      if (r.conn !== undefined && !root.conns.has(r.conn)) continue;
      ops.push({ op: "event", ref: root.ref, event });
    }
    if (ops.length === 0) {
      ops.push({
        op: "span",
        parent: null,
        span: {
          name: event.name,
          kind: "internal",
          startTime: event.time,
          endTime: event.time,
          attributes: event.attributes,
          status: { code: "unset" },
          events: [],
        },
      });
    }
    return ops;
  }

  /** The trace ended: pending attempts and requests become spans and open roots close, unsettled. */
  finish(endTime = this.lastTs): SpanOp[] {
    const ops: SpanOp[] = [];
    for (const root of this.roots.values()) {
      if (root.endTime !== null) continue;
      this.attempts(root, ops, endTime);
      this.close(root, false, endTime, ops);
    }
    for (const r of this.pendingRequests.values()) this.emitRequest(r, endTime, ops);
    this.pendingRequests.clear();
    return ops;
  }

  private submission(s: Submission, ops: SpanOp[]): void {
    let root = this.roots.get(s.id);
    if (!root) {
      const span = submissionStart(s, this.options);
      root = {
        ref: this.nextRef++,
        sessionId: s.sessionId,
        conns: new Set(),
        startTime: span.startTime,
        row: s,
        emitted: new Set(),
        endTime: null,
      };
      this.roots.set(s.id, root);
      ops.push({ op: "open", ref: root.ref, span });
    }
    root.row = s;
    for (const a of s.attempts) root.conns.add(a.conn);
    this.attempts(root, ops, null);
    if (root.endTime === null && submissionSettled(s)) {
      const end = s.attempts.reduce((m, a) => Math.max(m, this.endOf(a)), root.startTime);
      this.close(root, true, end, ops);
    }
  }

  /** Exports the attempts that have an outcome (all of them, as they stand, when `endTime` is given). */
  private attempts(root: RootState, ops: SpanOp[], endTime: number | null): void {
    root.row.attempts.forEach((a, i) => {
      if (root.emitted.has(a.requestSeq)) return;
      if (endTime === null && a.outcome.kind === "pending") return;
      root.emitted.add(a.requestSeq);
      const end = a.outcome.kind === "pending" && endTime !== null ? endTime : this.endOf(a);
      const origin =
        a.origin === "inspector" ? "inspector" : this.tapFrames.has(a.requestSeq) ? "tap" : "client";
      ops.push({ op: "span", parent: root.ref, span: attemptSpan(root.row, a, i + 1, end, origin) });
    });
  }

  private close(root: RootState, settled: boolean, endTime: number, ops: SpanOp[]): void {
    root.endTime = endTime;
    const { attributes, status } = submissionEnd(root.row, settled);
    ops.push({ op: "close", ref: root.ref, endTime, attributes, status });
  }

  private request(r: RequestRow, ops: SpanOp[]): void {
    if (this.emittedRequests.has(r.id)) return;
    if (r.outcome.kind === "pending") {
      this.pendingRequests.set(r.id, r);
      return;
    }
    this.pendingRequests.delete(r.id);
    const end = r.latencyMs !== null ? r.sentAt + r.latencyMs : this.timeOfOutcome(r.outcome);
    this.emitRequest(r, end, ops);
  }

  private emitRequest(r: RequestRow, endTime: number, ops: SpanOp[]): void {
    this.emittedRequests.add(r.id);
    const origin = r.requestSeq !== null && this.tapFrames.has(r.requestSeq) ? "tap" : "client";
    ops.push({ op: "span", parent: this.parentOf(r), span: requestSpan(r, endTime, origin) });
  }

  /** A request nests under the latest submission of its session and connection that was under way when it was sent. */
  private parentOf(r: RequestRow): number | null {
    if (typeof r.sessionId !== "string") return null;
    let parent: number | null = null;
    for (const root of this.roots.values()) {
      if (root.sessionId !== r.sessionId || !root.conns.has(r.conn)) continue;
      if (root.startTime > r.sentAt || (root.endTime !== null && root.endTime < r.sentAt)) continue;
      parent = root.ref;
    }
    return parent;
  }

  private ownerOf(seq: number): RootState | undefined {
    for (const root of this.roots.values()) {
      if (
        root.row.attempts.some(
          (a) => a.requestSeq === seq || a.responseSeq === seq || a.frameSeqs.includes(seq),
        )
      )
        return root;
    }
    return undefined;
  }

  private endOf(a: Attempt): number {
    if (a.latencyMs !== null) return a.sentAt + a.latencyMs;
    return this.timeOfOutcome(a.outcome);
  }

  private timeOfOutcome(o: Attempt["outcome"]): number {
    if (o.kind === "lost" || o.kind === "dropped") return this.tsOfSeq.get(o.seq) ?? this.lastTs;
    return this.lastTs;
  }
}
