/**
 * Which prompt attempt an agent's spans belong to (`proxy --collect-agent-telemetry`). The spans
 * are put in trees by their parent ids; each tree goes to one attempt: the attempt whose request
 * carried the tree's trace id in `params._meta.traceparent` (trace context), else the attempt on
 * the same connection that was under way when the tree's root started and whose request and answer
 * are nearest the root's start and end (time), else none.
 */
import type { Submission } from "../analyzer/timeline-model.js";
import type { AgentSpanRecord, TraceRecord } from "../trace/record.js";
import { type TraceParent, traceParentOfParams } from "./trace-context.js";

/** When one attempt was under way, as the trace shows it. */
export interface AttemptWindow {
  /** The attempt's selection key, `s<submission id>.a<index>`. */
  readonly key: string;
  readonly conn: number;
  /** `ts` of its request. */
  readonly start: number;
  /** `ts` of its answer (or of the record that lost it); null while it is pending. */
  readonly end: number | null;
  /** The `traceparent` its request carried in `params._meta`, if any. */
  readonly traceParent: TraceParent | null;
}

/** One span and the spans under it, children by start time. */
export interface SpanNode {
  readonly span: AgentSpanRecord;
  readonly children: SpanNode[];
}

/** How a tree was tied to its attempt. */
export type MatchedBy = "trace-context" | "time";

/** The span trees of one attempt. */
export interface AttemptSpans {
  readonly trees: { readonly root: SpanNode; readonly by: MatchedBy }[];
  /** Spans in those trees. */
  readonly count: number;
}

/** The result: trees per attempt key, and the trees no attempt took. */
export interface SpanMatching {
  readonly byAttempt: ReadonlyMap<string, AttemptSpans>;
  readonly unmatched: readonly SpanNode[];
}

/**
 * How far (ms) a span may start outside an attempt's window and still count as during it: the
 * agent's clock and the tap's are the same machine's, read at slightly different moments.
 */
export const CLOCK_SLACK_MS = 50;

/** The attempts of `submissions` as windows, reading their frames through `record`. */
export function attemptWindows(
  submissions: readonly Submission[],
  record: (seq: number) => TraceRecord | undefined,
): AttemptWindow[] {
  const out: AttemptWindow[] = [];
  for (const s of submissions)
    s.attempts.forEach((a, i) => {
      const endSeq =
        a.responseSeq ??
        (a.outcome.kind === "lost" ? a.outcome.seq : a.outcome.kind === "dropped" ? a.requestSeq : null);
      const request = record(a.requestSeq);
      let params: unknown;
      if (request?.type === "frame" && request.encoding === undefined && request.raw.includes("traceparent"))
        try {
          params = (JSON.parse(request.raw) as { params?: unknown }).params;
        } catch {
          params = undefined;
        }
      out.push({
        key: `s${s.id}.a${i}`,
        conn: a.conn,
        start: a.sentAt,
        end: endSeq === null ? null : (record(endSeq)?.ts ?? a.sentAt + (a.latencyMs ?? 0)),
        traceParent: traceParentOfParams(params),
      });
    });
  return out;
}

/** The spans as trees (a span whose parent is not among them is a root); a repeated span id counts once. */
export function spanTrees(spans: readonly AgentSpanRecord[]): SpanNode[] {
  const nodes = new Map<string, SpanNode>();
  for (const span of spans) {
    const id = `${span.traceId}/${span.spanId}`;
    if (!nodes.has(id)) nodes.set(id, { span, children: [] });
  }
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const { traceId, parentSpanId } = node.span;
    const parent = parentSpanId === undefined ? undefined : nodes.get(`${traceId}/${parentSpanId}`);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const byStart = (a: SpanNode, b: SpanNode) => a.span.startMs - b.span.startMs;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

function size(node: SpanNode): number {
  let n = 1;
  for (const c of node.children) n += size(c);
  return n;
}

function within(a: AttemptWindow, t: number, slack: number): boolean {
  return t >= a.start - slack && (a.end === null || t <= a.end + slack);
}

/** The attempt a tree belongs to, and how; null when none. */
function attemptOf(
  root: AgentSpanRecord,
  attempts: readonly AttemptWindow[],
  slack: number,
): { attempt: AttemptWindow; by: MatchedBy } | null {
  const sameTrace = attempts.filter((a) => a.traceParent?.traceId === root.traceId);
  if (sameTrace.length > 0) {
    const attempt =
      sameTrace.find((a) => a.traceParent?.parentId === root.parentSpanId) ??
      sameTrace.find((a) => within(a, root.startMs, slack)) ??
      (sameTrace[0] as AttemptWindow);
    return { attempt, by: "trace-context" };
  }
  let best: AttemptWindow | null = null;
  let bestMisfit = Number.POSITIVE_INFINITY;
  for (const a of attempts) {
    if (root.conn !== undefined && a.conn !== root.conn) continue;
    if (!within(a, root.startMs, slack)) continue;
    // The window that fits the span best: prompts sent a moment apart overlap, but each turn
    // starts near its own request and ends near its own answer.
    const misfit = Math.abs(root.startMs - a.start) + (a.end === null ? 0 : Math.abs(a.end - root.endMs));
    if (misfit < bestMisfit) {
      best = a;
      bestMisfit = misfit;
    }
  }
  return best && { attempt: best, by: "time" };
}

/** Ties every span tree to the attempt it happened in. */
export function matchAgentSpans(
  attempts: readonly AttemptWindow[],
  spans: readonly AgentSpanRecord[],
  slack = CLOCK_SLACK_MS,
): SpanMatching {
  const byAttempt = new Map<string, { trees: { root: SpanNode; by: MatchedBy }[]; count: number }>();
  const unmatched: SpanNode[] = [];
  for (const root of spanTrees(spans)) {
    const hit = attemptOf(root.span, attempts, slack);
    if (hit === null) {
      unmatched.push(root);
      continue;
    }
    let entry = byAttempt.get(hit.attempt.key);
    if (!entry) {
      entry = { trees: [], count: 0 };
      byAttempt.set(hit.attempt.key, entry);
    }
    entry.trees.push({ root, by: hit.by });
    entry.count += size(root);
  }
  return { byAttempt, unmatched };
}

/** One row of an indented span tree: the span, its depth and its duration. */
export interface SpanRow {
  readonly span: AgentSpanRecord;
  readonly depth: number;
  readonly durationMs: number;
}

/** A tree as rows, depth first, children by start time. */
export function spanRows(root: SpanNode, depth = 0, out: SpanRow[] = []): SpanRow[] {
  out.push({ span: root.span, depth, durationMs: Math.max(0, root.span.endMs - root.span.startMs) });
  for (const c of root.children) spanRows(c, depth + 1, out);
  return out;
}

/**
 * Why a tree matched no attempt, as facts for the words: its trace id was in no request's
 * `traceparent` (else it would have matched), and its root started outside every attempt's time on
 * its connection; `gapMs` is how far outside the nearest one (null: no attempt on that connection).
 */
export interface NoMatchReason {
  /** The root's connection, when the span names one. */
  readonly conn: number | null;
  /** Attempts the root could have matched by time (those of its connection, or all). */
  readonly candidates: number;
  /** How far (ms) the root's start lies from the nearest such attempt's window; null without one. */
  readonly gapMs: number | null;
  /** Whether that nearest attempt came after the root started (`before`) or ended before it (`after`). */
  readonly side: "before" | "after" | null;
}

/** The facts behind an unmatched tree (see `NoMatchReason`). */
export function noMatchReason(root: AgentSpanRecord, attempts: readonly AttemptWindow[]): NoMatchReason {
  const conn = root.conn ?? null;
  const candidates = attempts.filter((a) => conn === null || a.conn === conn);
  let gapMs: number | null = null;
  let side: "before" | "after" | null = null;
  for (const a of candidates) {
    const before = a.start - root.startMs;
    const after = a.end === null ? Number.NEGATIVE_INFINITY : root.startMs - a.end;
    const gap = Math.max(before, after, 0);
    if (gapMs === null || gap < gapMs) {
      gapMs = gap;
      side = before >= after ? "before" : "after";
    }
  }
  return { conn, candidates: candidates.length, gapMs, side };
}
