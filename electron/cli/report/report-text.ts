/** The plain-text report of `acp-retry-inspector analyze`: submissions by session and key, then requests, frames, verdicts. */
import { submissionRef } from "../../../shared/analyzer/submission-words.js";
import type {
  Attempt,
  RequestRow,
  Submission,
  TimelineModel,
  VerdictHit,
} from "../../../shared/analyzer/timeline-model.js";
import { VERDICTS, type VerdictSeverity } from "../../../shared/analyzer/verdicts.js";
import { UNKEYED_RETRY_WARNING } from "../../../shared/faults/fault-rule.js";
import { describeImport } from "../../../shared/trace/interchange/describe.js";
import type { NoteRecord } from "../../../shared/trace/record.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import type { SeqGap, SeqGaps } from "../../trace/seq-gaps.js";

/** What `SeqGaps.result()` says: the holes in a trace's seqs. */
type SeqGapsResult = ReturnType<SeqGaps["result"]>;

const MARK: Record<VerdictSeverity, string> = {
  ok: "ok",
  violation: "VIOLATION",
  "client-issue": "client issue",
  info: "info",
};
const MAX_LISTED = 50;

function verdictLine(v: VerdictHit): string {
  return `    [${MARK[v.severity]}] ${v.name}: ${v.detail} (seq ${v.seqs.join(", ")})`;
}

function attemptLine(a: Attempt): string {
  const seqs = `seq ${a.requestSeq}${a.responseSeq !== null ? `->${a.responseSeq}` : ""}`;
  const latency = a.latencyMs !== null ? ` ${a.latencyMs.toFixed(1)} ms` : "";
  const cancel = a.cancelSeq !== null ? ` (cancel requested at seq ${a.cancelSeq})` : "";
  const origin =
    a.origin === "inspector"
      ? `  (retry by the inspector${a.forwarded ? ", its answer forwarded to the client" : ", its answer not forwarded"})`
      : a.origin !== undefined
        ? ` (sent by the ${a.origin}, not the client)`
        : "";
  return `    conn #${a.conn} id ${JSON.stringify(a.id)}${origin}  ${seqs}${latency}  ${a.words}${cancel}`;
}

function keyLabel(s: Submission): string {
  if (s.keyStatus === "valid") return `key ${s.key}`;
  if (s.keyStatus === "invalid") return `INVALID key ${s.invalidKey?.shown} (${s.invalidKey?.reason})`;
  return "no key";
}

function submissionBlock(s: Submission, byId: ReadonlyMap<number, Submission>): string[] {
  const of = s.resendOf !== null ? byId.get(s.resendOf) : undefined;
  const as = s.resentAs !== null ? byId.get(s.resentAs) : undefined;
  const links = `${of ? `, resends ${submissionRef(of)}` : ""}${as ? `, resent as ${submissionRef(as)}` : ""}`;
  const lines = [
    `  ${keyLabel(s)}  "${s.promptPreview}"`,
    `    ${s.attempts.length} attempt(s), ${s.inserts} insert(s) seen, ${s.result}${links}`,
    ...s.attempts.map(attemptLine),
    ...(s.keyStatus !== "valid" && s.attempts.some((a) => a.origin === "inspector")
      ? [`    note: the inspector retried this prompt, which has no valid key: ${UNKEYED_RETRY_WARNING}`]
      : []),
    ...s.verdicts.map(verdictLine),
  ];
  return lines;
}

function requestSummary(rows: readonly RequestRow[]): string[] {
  const byMethod = new Map<string, { retryClass: string; outcomes: Map<string, number>; count: number }>();
  for (const r of rows) {
    const by = r.origin !== undefined ? `, sent by the ${r.origin}, not the client` : "";
    const name = r.unmatched ? "(unmatched response)" : `${r.method} (${r.dir}${by})`;
    let m = byMethod.get(name);
    if (!m) {
      m = { retryClass: r.retryClass, outcomes: new Map(), count: 0 };
      byMethod.set(name, m);
    }
    m.count++;
    m.outcomes.set(r.outcome.kind, (m.outcomes.get(r.outcome.kind) ?? 0) + 1);
  }
  const lines: string[] = [];
  for (const [name, m] of byMethod) {
    const outcomes = [...m.outcomes].map(([k, n]) => `${n} ${k}`).join(", ");
    lines.push(`  ${name}  [${m.retryClass}]  ${m.count}: ${outcomes}`);
  }
  for (const r of rows.filter((x) => x.verdicts.length > 0).slice(0, MAX_LISTED)) {
    lines.push(`  request ${r.method} conn #${r.conn} id ${JSON.stringify(r.jsonRpcId)} seq ${r.requestSeq}`);
    lines.push(...r.verdicts.map(verdictLine));
  }
  return lines;
}

/** One hole in a trace's seqs, in words: `seq 11-460 (450; the hub's note at seq 460: ...)`. */
function gapWords(g: SeqGap): string {
  const seqs = g.from === g.to ? `seq ${g.from}` : `seq ${g.from}-${g.to}`;
  if (!g.note) return `${seqs} (${g.missing})`;
  const why =
    g.note.reason === "tap-dropped" ? "the tap's hub link dropped them" : "the hub never received them";
  return `${seqs} (${g.missing}; the hub copy's note at seq ${g.note.seq}: ${why})`;
}

/**
 * The warnings `analyze` prints before its report (and in `--json` as `warnings`): records missing
 * from the file (holes in its seqs), records left out for a repeated or decreasing seq, and invalid
 * records. Empty for a sound trace.
 */
export function modelWarnings(model: TimelineModel, gaps?: SeqGapsResult): string[] {
  const out: string[] = [];
  if (gaps && gaps.gaps > 0) {
    const more = gaps.gaps > gaps.listed.length ? `, and ${gaps.gaps - gaps.listed.length} more hole(s)` : "";
    const holders = model.problems.length + (model.invalid?.filter((i) => i.record.seq === null).length ?? 0);
    const unreadable =
      holders > 0
        ? `; ${holders} unreadable line(s) or record(s) without a valid seq may hold some of them`
        : "";
    out.push(
      `warning: ${gaps.missing} record(s) missing from this trace (its seqs skip them): ${gaps.listed.map(gapWords).join(", ")}${more}${unreadable}`,
    );
  }
  const s = model.seqIssues;
  if (s) {
    const seqs = s.listed.map((x) => `${x.seq} after ${x.after}`).join(", ");
    const more = s.repeated + s.decreasing > s.listed.length ? ", ..." : "";
    out.push(
      `warning: ${s.repeated + s.decreasing} record(s) with a repeated (${s.repeated}) or decreasing (${s.decreasing}) seq were not analysed: seq ${seqs}${more}`,
    );
  }
  if (model.invalid && model.invalid.length > 0)
    out.push(`warning: ${model.invalid.length} invalid record(s) were kept flagged and not analysed`);
  return out;
}

/** Renders the whole model as a human-readable report; every line is terminal safe (wire text is escaped). */
export function renderReport(
  file: string,
  model: TimelineModel,
  traceNotes: readonly NoteRecord[] = [],
  gaps?: SeqGapsResult,
  sections: readonly string[] = [],
): string {
  const out: string[] = [...modelWarnings(model, gaps)];
  out.push(
    `Trace ${file}: ${model.records} records, ${model.frames} frames, ${model.connections.length} connection(s), ${model.agents.length} agent process(es)`,
  );
  if (model.header?.imported) out.push(`  ${describeImport(model.header.imported)}`);
  for (const c of model.connections) {
    const reason = c.closeReason !== null ? ` (${c.closeReason})` : "";
    const closed = c.closedSeq !== null ? `, closed at seq ${c.closedSeq}${reason}` : "";
    const version = c.protocolVersion !== null ? ` v${c.protocolVersion}` : "";
    out.push(`  conn #${c.conn} ${c.transport ?? "?"}${version}, ${c.frames} frames${closed}`);
  }
  for (const a of model.agents) {
    const exit =
      a.exitSeq !== null ? `, exited at seq ${a.exitSeq} (${a.exitSignal ?? `code ${a.exitCode}`})` : "";
    out.push(`  agent pid ${a.pid} ${a.command.join(" ")}${exit}, ${a.stderrLines} stderr line(s)`);
  }

  // What the tap or the suite put on the record (an agent that could not start, a teardown): it may be the whole story.
  if (traceNotes.length > 0) {
    out.push("", `Trace notes (${traceNotes.length})`);
    for (const n of traceNotes) out.push(`  seq ${n.seq} ${n.level}: ${n.text}`);
  }
  out.push("", `Submissions (${model.submissions.length})`);
  const bySession = new Map<string, Submission[]>();
  for (const s of model.submissions) {
    const k = s.sessionId ?? "(no sessionId)";
    const list = bySession.get(k);
    if (list) list.push(s);
    else bySession.set(k, [s]);
  }
  const byId = new Map(model.submissions.map((s) => [s.id, s]));
  for (const [session, list] of bySession) {
    out.push(` session ${session}`);
    for (const s of list) out.push(...submissionBlock(s, byId));
  }

  out.push("", `Other requests (${model.requests.length})`, ...requestSummary(model.requests));
  if (model.notifications.length > 0) {
    out.push("", "Notifications");
    for (const n of model.notifications) out.push(`  ${n.method}  [${n.retryClass}]  ${n.count}`);
  }
  if (model.malformed.length > 0) {
    out.push("", `Malformed frames (${model.malformed.length})`);
    for (const m of model.malformed.slice(0, MAX_LISTED)) {
      out.push(
        `  seq ${m.seq} conn #${m.conn} ${m.dir}: ${m.reason}: ${JSON.stringify(m.preview.slice(0, 60))}`,
      );
    }
  }
  if (model.problems.length > 0) {
    out.push("", `Unreadable trace lines (${model.problems.length})`);
    for (const p of model.problems.slice(0, MAX_LISTED))
      out.push(`  ${p.line > 0 ? `line ${p.line}: ` : ""}${p.message}`);
  }

  if (model.invalid && model.invalid.length > 0) {
    out.push("", `Invalid records (${model.invalid.length})`);
    for (const { line, record } of model.invalid.slice(0, MAX_LISTED)) {
      const faults = record.faults.map((f) => `${f.field} ${f.reason}`).join("; ");
      const at = `${line !== null ? `line ${line} ` : ""}${record.recordType ?? "record"}${record.seq !== null ? ` seq ${record.seq}` : ""}`;
      out.push(`  ${at}: ${faults}: ${record.preview.slice(0, 80)}`);
    }
  }

  out.push(...sections); // more sections the caller adds (analyze: latency per method), before the verdicts
  out.push("", "Verdicts");
  for (const v of VERDICTS) {
    const n = model.verdictCounts[v.name];
    if (n > 0) out.push(`  [${MARK[v.severity]}] ${v.name}: ${n}  (${v.explanation} RFD: "${v.rule}")`);
  }
  const violations = VERDICTS.filter((v) => v.severity === "violation").reduce(
    (n, v) => n + model.verdictCounts[v.name],
    0,
  );
  const issues = VERDICTS.filter((v) => v.severity === "client-issue").reduce(
    (n, v) => n + model.verdictCounts[v.name],
    0,
  );
  const notes = VERDICTS.filter((v) => v.severity === "info").reduce(
    (n, v) => n + model.verdictCounts[v.name],
    0,
  );
  out.push(
    `  ${violations} Agent violation(s), ${issues} Client issue(s)${notes > 0 ? `, ${notes} note(s) for v1 sessions` : ""}`,
  );
  // Each line is one line of the report: a newline or an escape sequence inside a value is shown escaped.
  return `${out.map((line) => terminalSafe(line)).join("\n")}\n`;
}
