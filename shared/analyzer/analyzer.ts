/**
 * The incremental analyzer: trace records in (in seq order), timeline model out. Each frame is
 * parsed once; per-record work is O(1) amortised plus the key-leak scan of Agent frames.
 */
import { AGENT_EXIT_LOSES_ALL_OPEN_CONNECTIONS } from "../protocol/decisions.js";
import { classifyFrame, type Frame } from "../protocol/frame.js";
import { checkPromptParamsKey } from "../protocol/idempotency-key.js";
import { retryClassOf } from "../protocol/method-catalogue.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../trace/record.js";
import { ChangeSet, copyRequest, copySubmission } from "./change-set.js";
import { KeyLeakIndex } from "./key-leak.js";
import { LifecycleRows } from "./lifecycle.js";
import { MessageLinks } from "./message-links.js";
import { answerLost, outcomeOfResponse } from "./outcome.js";
import { PendingRequests } from "./pending-requests.js";
import { canonicalJson } from "./prompt-content.js";
import { initialOutcome, newAttempt, newMalformedRow, newRequestRow } from "./rows.js";
import { SubmissionBook } from "./submission-book.js";
import type { SubmissionState } from "./submission-state.js";
import { judgeSubmission } from "./submission-verdicts.js";
import type {
  MalformedRow,
  NotificationCount,
  Outcome,
  RequestRow,
  TimelineChanges,
  TimelineModel,
  TraceProblem,
  VerdictHit,
} from "./timeline-model.js";
import { VERDICT_NAMES, type VerdictName, verdictSeverity } from "./verdicts.js";

type RequestFrame = Extract<Frame, { kind: "request" }>;
type ResponseFrame = Extract<Frame, { kind: "result" | "error" }>;

/** Requests whose answer arrives after replayed history (user messages seen meanwhile are not new inserts). */
const REPLAY_METHODS = new Set(["session/resume", "session/load"]);
const MAX_LEAK_SEQS = 20;

function opposite(dir: FrameRecord["dir"]): FrameRecord["dir"] {
  return dir === "client->agent" ? "agent->client" : "client->agent";
}

function asObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function sessionIdOf(params: unknown): string | null {
  const id = asObject(params)?.sessionId;
  return typeof id === "string" ? id : null;
}

/** Builds the timeline model from trace records, one record at a time. */
export class Analyzer {
  private header: TraceHeader | null = null;
  private revision = 0;
  private records = 0;
  private frames = 0;
  private lastSeq = 0;
  private nextRowId = 1;

  private readonly requests: RequestRow[] = [];
  private readonly malformed: MalformedRow[] = [];
  private readonly problems: TraceProblem[] = [];
  private readonly verdictCounts = Object.fromEntries(VERDICT_NAMES.map((n) => [n, 0])) as Record<
    VerdictName,
    number
  >;

  private readonly notificationCounts = new Map<string, NotificationCount>();
  private readonly pending = new PendingRequests();
  private readonly links = new MessageLinks();
  private readonly book = new SubmissionBook();
  /** The latest duplicating request per `method \0 canonical params`. */
  private readonly lastDuplicating = new Map<string, RequestRow>();
  private readonly leaks = new KeyLeakIndex();
  private readonly leakFound = new Set<string>();
  private readonly changes = new ChangeSet();
  private readonly lifecycle = new LifecycleRows({
    revision: () => this.revision,
    newRowId: () => this.nextRowId++,
    changes: this.changes,
  });

  /** Takes the trace header (optional; kept in the model). */
  ingestHeader(header: TraceHeader): void {
    this.header = header;
    this.revision++;
  }

  /** Records a trace line the reader could not decode. */
  ingestProblem(problem: TraceProblem): void {
    this.problems.push(problem);
    this.revision++;
  }

  /** Takes the next record of the trace (records must arrive in seq order). */
  ingest(record: TraceRecord): void {
    this.revision++;
    this.records++;
    this.lastSeq = record.seq;
    switch (record.type) {
      case "frame":
        this.onFrame(record);
        break;
      case "conn-open":
        this.lifecycle.opened(record);
        break;
      case "conn-close":
        this.lifecycle.closed(record);
        this.loseConnection(record.conn, `connection #${record.conn} closed: ${record.reason}`, record.seq);
        break;
      case "agent-spawn":
        this.lifecycle.spawned(record);
        break;
      case "agent-exit": {
        this.lifecycle.exited(record);
        if (!AGENT_EXIT_LOSES_ALL_OPEN_CONNECTIONS) break;
        const why = `agent ${record.pid} exited (${record.signal ?? `code ${record.code}`})`;
        // An agent that served one connection only (a remote front's per-connection agent) loses just that one.
        const open = this.lifecycle.openConnections();
        const lost = record.conn !== undefined ? open.filter((c) => c === record.conn) : open;
        for (const conn of lost) this.loseConnection(conn, why, record.seq);
        break;
      }
      case "agent-stderr":
        this.lifecycle.stderr(record);
        break;
      default:
        break;
    }
  }

  /** The whole model as it stands. Rows are live: later ingests change them (use `takeChanges` for copies). */
  model(): TimelineModel {
    return {
      header: this.header,
      revision: this.revision,
      records: this.records,
      frames: this.frames,
      lastSeq: this.lastSeq,
      submissions: this.book.rows,
      requests: this.requests,
      malformed: this.malformed,
      connections: this.lifecycle.connections,
      agents: this.lifecycle.agents,
      notifications: [...this.notificationCounts.values()],
      problems: this.problems,
      verdictCounts: { ...this.verdictCounts },
    };
  }

  /** Copies of the rows changed since the previous call (or since the start), then forgets them. */
  takeChanges(): TimelineChanges {
    const c = this.changes;
    const out: TimelineChanges = {
      revision: this.revision,
      submissions: [...c.submissions].map(copySubmission),
      requests: [...c.requests].map(copyRequest),
      malformed: [...c.malformed],
      connections: [...c.connections].map((r) => ({ ...r })),
      agents: [...c.agents].map((r) => ({ ...r })),
      verdictCounts: { ...this.verdictCounts },
    };
    c.clear();
    return out;
  }

  /** True when any verdict of severity `violation` (an Agent breaking an RFD rule) is present. */
  hasViolations(): boolean {
    return VERDICT_NAMES.some((n) => verdictSeverity(n) === "violation" && this.verdictCounts[n] > 0);
  }

  // ---- frames -------------------------------------------------------------------------------

  private onFrame(r: FrameRecord): void {
    this.frames++;
    this.lifecycle.conn(r.conn).frames++;
    if (r.encoding === "base64" || (r.flags !== undefined && r.flags.length > 0)) {
      const reason =
        r.encoding === "base64" ? "not UTF-8 (kept as base64)" : `flagged: ${r.flags?.join(", ")}`;
      this.addMalformed(r, reason);
      return;
    }
    const frame = classifyFrame(r.raw);
    if (frame.kind === "malformed") {
      this.addMalformed(r, frame.reason);
      return;
    }
    if (r.dir === "agent->client" && this.leaks.size > 0) this.checkLeaks(frame.message, r.seq);
    switch (frame.kind) {
      case "request":
        if (frame.method === "session/prompt" && r.dir === "client->agent") this.onPrompt(r, frame);
        else this.onRequest(r, frame);
        break;
      case "notification":
        this.onNotification(r, frame);
        break;
      default:
        this.onResponse(r, frame);
    }
  }

  private addMalformed(r: FrameRecord, reason: string): void {
    const row = newMalformedRow(this.nextRowId++, this.revision, r, reason);
    this.malformed.push(row);
    this.changes.malformed.add(row);
  }

  private onPrompt(r: FrameRecord, frame: RequestFrame): void {
    const params = asObject(frame.params);
    const sessionId = typeof params?.sessionId === "string" ? params.sessionId : null;
    const check = checkPromptParamsKey(params);
    const digest = canonicalJson(params?.prompt);
    const facts = { sessionId, check, rawKey: params?.idempotencyKey, prompt: params?.prompt, digest };
    const { state, created } = this.book.submissionFor(facts, () => this.nextRowId++, this.revision);
    if (created && check.kind === "valid") this.leaks.add(check.key);
    const attempt = newAttempt(r, frame.id);
    state.row.attempts.push(attempt);
    state.digests.push(digest);
    if (!r.dropped) {
      this.pending.add(r.conn, r.dir, frame.id, { kind: "prompt", attempt, state });
      this.links.queuePrompt(r.conn, sessionId ?? "", attempt, state);
    }
    this.judge(state);
  }

  private onRequest(r: FrameRecord, frame: RequestFrame): void {
    const retryClass = retryClassOf(frame.method, "request");
    const row = newRequestRow(
      this.nextRowId++,
      this.revision,
      r,
      frame.id,
      frame.method,
      retryClass,
      initialOutcome(r),
      sessionIdOf(frame.params),
    );
    this.requests.push(row);
    this.changes.requests.add(row);
    if (retryClass === "duplicating" && r.dir === "client->agent") this.checkDuplicatingResend(row, frame);
    if (frame.method === "initialize") {
      const version = asObject(frame.params)?.protocolVersion;
      const c = this.lifecycle.conn(r.conn);
      if (typeof version === "number" && c.protocolVersion === null) c.protocolVersion = version;
    }
    if (r.dropped) return;
    if (REPLAY_METHODS.has(frame.method)) this.links.replayStarted(r.conn);
    this.pending.add(r.conn, r.dir, frame.id, { kind: "request", row });
  }

  private checkDuplicatingResend(row: RequestRow, frame: RequestFrame): void {
    const k = `${frame.method}\u0000${canonicalJson(frame.params)}`;
    const previous = this.lastDuplicating.get(k);
    this.lastDuplicating.set(k, row);
    if (!previous || !answerLost(previous.outcome)) return;
    const hit: VerdictHit = {
      name: "duplicating-resend",
      severity: verdictSeverity("duplicating-resend"),
      detail: `${frame.method} resent with the same params after request ${previous.id}'s answer was lost`,
      seqs: [previous.requestSeq, row.requestSeq].filter((s): s is number => s !== null),
    };
    this.replaceVerdicts(row.verdicts, [hit]);
    row.verdicts = [hit];
  }

  private onNotification(r: FrameRecord, frame: Extract<Frame, { kind: "notification" }>): void {
    let count = this.notificationCounts.get(frame.method);
    if (!count) {
      const retryClass = retryClassOf(frame.method, "notification");
      count = { method: frame.method, retryClass, count: 0, lastSeq: 0 };
      this.notificationCounts.set(frame.method, count);
    }
    count.count++;
    count.lastSeq = r.seq;
    const params = asObject(frame.params);
    if (!params) return;
    if (frame.method === "session/update" && r.dir === "agent->client") {
      const update = asObject(params.update);
      const kind = update?.sessionUpdate;
      if (
        (kind === "user_message" || kind === "user_message_chunk") &&
        typeof update?.messageId === "string"
      ) {
        const sessionId = typeof params.sessionId === "string" ? params.sessionId : "";
        const attributed = this.links.seenInUpdate(r.conn, sessionId, update.messageId, r.seq);
        if (attributed) this.judge(attributed);
      }
    } else if (frame.method === "$/cancel_request" && !r.dropped) {
      const requestId = params.requestId;
      if (typeof requestId !== "string" && typeof requestId !== "number") return;
      const p = this.pending.get(r.conn, r.dir, requestId);
      if (p?.kind !== "prompt") return;
      p.attempt.cancelSeq = r.seq;
      p.attempt.frameSeqs.push(r.seq);
      if (p.state.row.keyStatus === "valid") {
        p.state.cancelGroups.push(p.state.row.attempts.filter((a) => a.outcome.kind === "pending"));
      }
      this.judge(p.state);
    }
  }

  private onResponse(r: FrameRecord, frame: ResponseFrame): void {
    const id = frame.id;
    const p = id === null ? undefined : this.pending.take(r.conn, opposite(r.dir), id);
    const answer = outcomeOfResponse(frame, p?.kind === "prompt");
    const outcome: Outcome = r.dropped ? { kind: "dropped", frame: "response", seq: r.seq, answer } : answer;
    if (!p) {
      const row = newRequestRow(this.nextRowId++, this.revision, r, id, null, "unclassified", outcome);
      this.requests.push(row);
      this.changes.requests.add(row);
      return;
    }
    if (p.kind === "prompt") {
      const a = p.attempt;
      a.outcome = outcome;
      a.responseSeq = r.seq;
      a.latencyMs = r.ts - a.sentAt;
      a.frameSeqs.push(r.seq);
      if (answer.kind === "inserted" && answer.messageId === null) p.state.nullInserts++;
      else if (answer.kind === "inserted" && answer.messageId !== null) {
        const displaced = this.links.claim(p.state, answer.messageId, r.seq);
        if (displaced) this.judge(displaced);
        p.state.row.finalMessageId ??= answer.messageId;
      }
      this.judge(p.state);
      return;
    }
    const row = p.row;
    row.outcome = outcome;
    row.responseSeq = r.seq;
    row.latencyMs = r.ts - row.sentAt;
    this.touchRequest(row);
    const result = frame.kind === "result" ? asObject(frame.result) : null;
    if (row.method === "initialize" && typeof result?.protocolVersion === "number") {
      this.lifecycle.conn(r.conn).protocolVersion = result.protocolVersion;
    }
    if (row.retryClass === "duplicating" && typeof result?.sessionId === "string") {
      row.createdSessionId = result.sessionId;
    }
    if (row.method !== null && REPLAY_METHODS.has(row.method)) this.links.replayEnded(r.conn);
  }

  // ---- keys, connections, verdicts -------------------------------------------------------------

  private checkLeaks(message: unknown, seq: number): void {
    const found = this.leakFound;
    this.leaks.scan(message, found);
    if (found.size === 0) return;
    for (const key of found) {
      for (const state of this.book.withKey(key)) {
        if (state.leakSeqs.length < MAX_LEAK_SEQS) state.leakSeqs.push(seq);
        this.judge(state);
      }
    }
    found.clear();
  }

  private loseConnection(conn: number, reason: string, seq: number): void {
    this.links.connectionGone(conn);
    const lost: Outcome = { kind: "lost", reason, seq };
    for (const p of this.pending.takeConnection(conn)) {
      if (p.kind === "prompt") {
        p.attempt.outcome = lost;
        this.judge(p.state);
      } else {
        p.row.outcome = lost;
        this.touchRequest(p.row);
      }
    }
  }

  private judge(state: SubmissionState): void {
    const row = state.row;
    row.inserts = state.mids.size + state.nullInserts;
    const verdicts = judgeSubmission(state);
    this.replaceVerdicts(row.verdicts, verdicts);
    row.verdicts = verdicts;
    row.rev = this.revision;
    this.changes.submissions.add(row);
  }

  private replaceVerdicts(before: readonly VerdictHit[], after: readonly VerdictHit[]): void {
    for (const v of before) this.verdictCounts[v.name]--;
    for (const v of after) this.verdictCounts[v.name]++;
  }

  private touchRequest(row: RequestRow): void {
    row.rev = this.revision;
    this.changes.requests.add(row);
  }
}
