/**
 * What each MCP tool answers about one redacted trace (redacted-trace.ts), as plain JSON values:
 * a summary (submissions, verdicts), one submission with its attempts and frames, and a search with
 * the app's filter syntax (docs/desktop-app.md#the-filter). Every list is bounded and says how many
 * it left off; frames longer than a bound are cut and marked.
 */

import { matchesFilter, type TopRow } from "../../renderer/model/filter/timeline-filter.js";
import type { MalformedRow, RequestRow, Submission } from "../../shared/analyzer/timeline-model.js";
import { VERDICTS } from "../../shared/analyzer/verdicts.js";
import { parseFilter } from "../../shared/filter/parse-filter.js";
import type { RedactedTrace } from "./redacted-trace.js";
import { TraceRequestError } from "./trace-catalogue.js";

/** Bounds of the answers. */
export const ANSWER_LIMITS = {
  /** Submissions listed in a summary. */
  summarySubmissions: 50,
  /** Verdict hits listed in a summary. */
  summaryVerdicts: 100,
  /** Frames returned with one submission. */
  submissionFrames: 200,
  /** Characters of one frame's raw text. */
  frameChars: 16_384,
  /** Search results at most (the default is 50). */
  searchResults: 500,
} as const;

/** Where a summary's reader finds the schema violations (the check is a tool of its own: it loads the schema). */
export const SCHEMA_NOT_CHECKED =
  "not in the summary: list_violations checks every frame against the ACP schema";

const severityOf = new Map(VERDICTS.map((v) => [v.name, v.severity]));

function submissionLine(s: Submission) {
  return {
    id: s.id,
    sessionId: s.sessionId,
    key: s.key,
    keyStatus: s.keyStatus,
    attempts: s.attempts.length,
    result: s.result,
    verdicts: s.verdicts.map((v) => v.name),
  };
}

/** The trace at a glance: its header, counts, verdicts per severity and the first submissions. */
export function summarize(trace: RedactedTrace) {
  const m = trace.model;
  const hits = [
    ...m.submissions.flatMap((s) => s.verdicts.map((v) => ({ row: `submission ${s.id}`, ...v }))),
    ...m.requests.flatMap((r) => r.verdicts.map((v) => ({ row: `request ${r.id}`, ...v }))),
  ];
  const bySeverity: Record<string, number> = {};
  for (const [name, count] of Object.entries(m.verdictCounts))
    if (count > 0)
      bySeverity[severityOf.get(name as never) ?? "info"] =
        (bySeverity[severityOf.get(name as never) ?? "info"] ?? 0) + count;
  return {
    trace: trace.entry.name,
    header: trace.header,
    records: m.records,
    frames: m.frames,
    connections: m.connections.length,
    submissions: m.submissions.length,
    requests: m.requests.length,
    malformedFrames: m.malformed.length,
    verdictCounts: Object.fromEntries(Object.entries(m.verdictCounts).filter(([, n]) => n > 0)),
    verdictsBySeverity: bySeverity,
    verdicts: hits.slice(0, ANSWER_LIMITS.summaryVerdicts).map(({ row, name, severity, detail, seqs }) => ({
      row,
      name,
      severity,
      detail,
      seqs,
    })),
    verdictsLeftOff: Math.max(0, hits.length - ANSWER_LIMITS.summaryVerdicts),
    schemaViolations: SCHEMA_NOT_CHECKED,
    unreadableLines: trace.badLines,
    firstSubmissions: m.submissions.slice(0, ANSWER_LIMITS.summarySubmissions).map(submissionLine),
    submissionsLeftOff: Math.max(0, m.submissions.length - ANSWER_LIMITS.summarySubmissions),
  };
}

function frameOf(trace: RedactedTrace, seq: number) {
  const f = trace.frames.get(seq);
  if (!f) return { seq, missing: true };
  const cut = f.raw.length > ANSWER_LIMITS.frameChars;
  return {
    seq,
    conn: f.conn,
    dir: f.dir,
    ts: f.ts,
    raw: cut ? f.raw.slice(0, ANSWER_LIMITS.frameChars) : f.raw,
    ...(cut && { truncated: true, rawChars: f.raw.length }),
    ...(f.encoding && { encoding: f.encoding }),
    ...(f.flags && { flags: f.flags }),
    ...(f.dropped && { dropped: true }),
  };
}

/** One submission, by row id or idempotency key, with its attempts and their frames (redacted). */
export function submissionDetail(trace: RedactedTrace, which: { id?: number; key?: string }) {
  const s =
    which.id !== undefined
      ? trace.model.submissions.find((x) => x.id === which.id)
      : which.key !== undefined
        ? trace.model.submissions.find((x) => x.key === which.key)
        : undefined;
  if (!s)
    throw new TraceRequestError(
      which.id === undefined && which.key === undefined
        ? "name the submission by id or key"
        : `no submission ${which.id !== undefined ? `with id ${which.id}` : `with key ${JSON.stringify(which.key?.slice(0, 300))}`} in ${trace.entry.name}`,
    );
  let budget: number = ANSWER_LIMITS.submissionFrames;
  let left = 0;
  const attempts = s.attempts.map((a) => {
    const seqs = a.frameSeqs.slice(0, Math.max(0, budget));
    budget -= seqs.length;
    left += a.frameSeqs.length - seqs.length;
    return { ...a, frames: seqs.map((seq) => frameOf(trace, seq)) };
  });
  return { trace: trace.entry.name, submission: { ...s, attempts }, framesLeftOff: left };
}

function rowLine(top: TopRow) {
  switch (top.kind) {
    case "submission":
      return { kind: "submission", ...submissionLine(top.row) };
    case "request": {
      const r: RequestRow = top.row;
      return {
        kind: "request",
        id: r.id,
        conn: r.conn,
        method: r.method,
        jsonRpcId: r.jsonRpcId,
        outcome: r.outcome.kind,
        verdicts: r.verdicts.map((v) => v.name),
      };
    }
    case "malformed": {
      const m: MalformedRow = top.row;
      return { kind: "malformed", seq: m.seq, conn: m.conn, reason: m.reason };
    }
  }
}

/** The Timeline's top-level rows that pass `query` (the app's filter syntax), at most `limit`. */
export function search(trace: RedactedTrace, query: string, limit = 50) {
  const filter = parseFilter(query);
  if (filter.problems.length > 0)
    throw new TraceRequestError(
      `the query has problems: ${filter.problems.map((p) => p.message).join("; ")}`,
    );
  const rawOf = (seq: number) => trace.frames.get(seq)?.raw;
  const rows: TopRow[] = [
    ...trace.model.submissions.map((row) => ({ kind: "submission", row }) as const),
    ...trace.model.requests.map((row) => ({ kind: "request", row }) as const),
    ...trace.model.malformed.map((row) => ({ kind: "malformed", row }) as const),
  ];
  const cap = Math.min(Math.max(1, Math.floor(limit)), ANSWER_LIMITS.searchResults);
  const found: ReturnType<typeof rowLine>[] = [];
  let total = 0;
  for (const top of rows) {
    if (!matchesFilter(top, filter, rawOf)) continue;
    total++;
    if (found.length < cap) found.push(rowLine(top));
  }
  return { trace: trace.entry.name, query, matches: total, rows: found, leftOff: total - found.length };
}
