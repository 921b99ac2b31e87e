/**
 * The incremental analyzer: trace records in (in seq order), timeline model out. Each frame is
 * parsed once; per-record work is O(1) amortised plus the key-leak scan of Agent frames. The
 * analyzer routes each record to the part that keeps its rows: prompt attempts, other requests,
 * notification counts, connections and Agents; the verdict tally keeps every row judged.
 */
import { AGENT_EXIT_LOSES_ALL_OPEN_CONNECTIONS } from "../protocol/analyzer-choices.js";
import { classifyFrame, type Frame, type NotificationFrame, type ResponseFrame } from "../protocol/frame.js";
import type { ConnCloseRecord, FrameRecord, TraceHeader, TraceRecord } from "../trace/record.js";
import type { InvalidRecord } from "../trace/record-check.js";
import { ChangeSet, copyRequest, copySubmission } from "./change-set.js";
import { LifecycleRows, type RowContext } from "./lifecycle.js";
import { MessageIndex } from "./message-index.js";
import { NotificationCounts } from "./notification-counts.js";
import { outcomeOfResponse } from "./outcome.js";
import { PendingRequests } from "./pending-requests.js";
import { PromptAttempts } from "./prompt-attempts.js";
import { RequestBook } from "./request-book.js";
import { newMalformedRow } from "./rows.js";
import type {
  InvalidEntry,
  MalformedRow,
  Outcome,
  SeqIssues,
  TimelineChanges,
  TimelineModel,
  TraceProblem,
} from "./timeline-model.js";
import { VerdictTally } from "./verdict-tally.js";

/** `connection #n closed: reason`, or just `connection #n closed` when the record gives no reason. */
function connClosedReason(r: ConnCloseRecord): string {
  const reason = typeof r.reason === "string" && r.reason !== "" ? `: ${r.reason}` : "";
  return `connection #${r.conn} closed${reason}`;
}
/** How many seq issues the model lists one by one (all are counted). */
export const MAX_SEQ_ISSUES_LISTED = 100;

function opposite(dir: FrameRecord["dir"]): FrameRecord["dir"] {
  return dir === "client->agent" ? "agent->client" : "client->agent";
}

/** Builds the timeline model from trace records, one record at a time. */
export class Analyzer {
  private header: TraceHeader | null = null;
  private revision = 0;
  private records = 0;
  private frames = 0;
  private lastSeq = 0;
  private nextRowId = 1;

  private readonly malformed: MalformedRow[] = [];
  private readonly problems: TraceProblem[] = [];
  /** Answers a `delay` holds, by seq, until their fate record. */
  private readonly heldAnswers = new Map<number, { r: FrameRecord; frame: ResponseFrame }>();
  /** Requests a `delay` holds, by seq, until their fate record. */
  private readonly heldRequests = new Map<number, { conn: number; id: string | number }>();
  private readonly invalid: InvalidEntry[] = [];
  private seqIssues: SeqIssues | undefined;
  private readonly changes = new ChangeSet();
  private readonly ctx: RowContext = {
    revision: () => this.revision,
    newRowId: () => this.nextRowId++,
    changes: this.changes,
    timesKnown: () => !this.header?.imported?.lacks.includes("timestamps"),
  };
  private readonly tally = new VerdictTally(this.ctx);
  private readonly notifications = new NotificationCounts();
  private readonly pending = new PendingRequests();
  private readonly links = new MessageIndex();
  private readonly lifecycle = new LifecycleRows(this.ctx);
  private readonly requests = new RequestBook({
    ctx: this.ctx,
    lifecycle: this.lifecycle,
    links: this.links,
    pending: this.pending,
    tally: this.tally,
  });
  private readonly prompts = new PromptAttempts({
    ctx: this.ctx,
    lifecycle: this.lifecycle,
    links: this.links,
    pending: this.pending,
    tally: this.tally,
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

  /** Keeps an invalid record (record-check.ts) flagged; it is not analysed. `line`: its trace line, when from a file. */
  ingestInvalid(record: InvalidRecord, line: number | null = null): void {
    this.invalid.push({ line, record });
    this.revision++;
  }

  /**
   * Takes the next record of the trace. Seqs only grow: a record whose seq repeats or goes back is
   * counted in `seqIssues` and not analysed (a record read twice must not make a second attempt).
   * Returns the frame as parsed and classified when the record is a frame the analyzer parsed (not
   * flagged, not base64, in order), so that a reader checking the same frames (the schema check)
   * need not parse it again; the analyzer does not change it later.
   */
  ingest(record: TraceRecord): Frame | undefined {
    if (record.seq <= this.lastSeq) {
      this.outOfOrder(record.seq);
      return undefined;
    }
    this.revision++;
    this.records++;
    this.lastSeq = record.seq;
    switch (record.type) {
      case "frame":
        return this.onFrame(record);
      case "conn-open":
        this.lifecycle.opened(record);
        break;
      case "conn-close":
        this.lifecycle.closed(record);
        this.loseConnection(record.conn, connClosedReason(record), record.seq, "conn-close");
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
        for (const conn of lost) this.loseConnection(conn, why, record.seq, "agent-exit");
        break;
      }
      case "agent-stderr":
        this.lifecycle.stderr(record);
        break;
      case "fault":
        if (record.fate !== undefined && record.frameSeq !== undefined)
          this.onHeldFate(record.frameSeq, record.fate === "released", record.detail);
        break;
      default:
        break;
    }
    return undefined;
  }

  /** The whole model as it stands. Rows are live: later ingests change them (use `takeChanges` for copies). */
  model(): TimelineModel {
    return {
      header: this.header,
      revision: this.revision,
      records: this.records,
      frames: this.frames,
      lastSeq: this.lastSeq,
      submissions: this.prompts.rows,
      requests: this.requests.rows,
      malformed: this.malformed,
      connections: this.lifecycle.connections,
      agents: this.lifecycle.agents,
      notifications: this.notifications.rows(),
      problems: this.problems,
      verdictCounts: this.tally.snapshot(),
      ...(this.invalid.length > 0 && { invalid: this.invalid }),
      ...(this.seqIssues && { seqIssues: this.seqIssues }),
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
      verdictCounts: this.tally.snapshot(),
    };
    c.clear();
    return out;
  }

  /** True when any verdict of severity `violation` (an Agent breaking an RFD rule) is present. */
  hasViolations(): boolean {
    return this.tally.hasViolations();
  }

  private outOfOrder(seq: number): void {
    this.revision++;
    this.seqIssues ??= { repeated: 0, decreasing: 0, listed: [] };
    const issues = this.seqIssues;
    if (seq === this.lastSeq) issues.repeated++;
    else issues.decreasing++;
    if (issues.listed.length < MAX_SEQ_ISSUES_LISTED) issues.listed.push({ seq, after: this.lastSeq });
  }

  // ---- frames -------------------------------------------------------------------------------

  /** Analyses one frame record; returns its parsed frame, or undefined when it was not parsed (flagged or base64). */
  private onFrame(r: FrameRecord): Frame | undefined {
    this.frames++;
    this.lifecycle.conn(r.conn).frames++;
    if (r.encoding === "base64" || (r.flags !== undefined && r.flags.length > 0)) {
      const reason =
        r.encoding === "base64" ? "not UTF-8 (kept as base64)" : `flagged: ${r.flags?.join(", ")}`;
      this.addMalformed(r, reason);
      return undefined;
    }
    const frame = classifyFrame(r.raw);
    if (frame.kind === "malformed") {
      this.addMalformed(r, frame.reason);
      return frame;
    }
    if (r.dir === "agent->client")
      this.prompts.scanForLeaks(
        frame.message,
        r.seq,
        Array.isArray(r.previewLeaks) ? r.previewLeaks : undefined,
      );
    if (r.held) {
      // held by a `delay`: an answer counts once its fate says it was released; a request was sent
      if (frame.kind === "result" || frame.kind === "error") {
        this.heldAnswers.set(r.seq, { r, frame });
        return frame;
      }
      if (frame.kind === "request") this.heldRequests.set(r.seq, { conn: r.conn, id: frame.id });
    }
    switch (frame.kind) {
      case "request":
        if (frame.method === "session/prompt" && r.dir === "client->agent") this.prompts.sent(r, frame);
        else this.requests.sent(r, frame);
        break;
      case "notification":
        this.onNotification(r, frame);
        break;
      default:
        this.onResponse(r, frame);
    }
    return frame;
  }

  private addMalformed(r: FrameRecord, reason: string): void {
    const row = newMalformedRow(this.nextRowId++, this.revision, r, reason);
    this.malformed.push(row);
    this.changes.malformed.add(row);
  }

  private onNotification(r: FrameRecord, frame: NotificationFrame): void {
    this.notifications.count(frame.method, r.seq);
    this.prompts.notified(r, frame);
  }

  /** A frame a `delay` held got its fate: a released answer is taken now, one never delivered is dropped; a request never delivered is lost. */
  private onHeldFate(frameSeq: number, released: boolean, detail: string | undefined): void {
    const answer = this.heldAnswers.get(frameSeq);
    if (answer) {
      this.heldAnswers.delete(frameSeq);
      this.onResponse(answer.r, answer.frame, !released);
      return;
    }
    const request = this.heldRequests.get(frameSeq);
    if (!request) return;
    this.heldRequests.delete(frameSeq);
    if (released) return;
    const p = this.pending.take(request.conn, "client->agent", request.id);
    const lost: Outcome = {
      kind: "lost",
      reason: `held by a delay and never delivered to the Agent (${detail ?? "no release"})`,
      seq: frameSeq,
      cause: "held",
    };
    if (p?.kind === "prompt") this.prompts.lost(p, lost);
    else if (p) this.requests.lost(p.row, lost);
  }

  private onResponse(r: FrameRecord, frame: ResponseFrame, heldNeverDelivered = false): void {
    if (r.origin === "inspector" && r.replaces !== undefined && r.dir === "agent->client") {
      // The answer to an inspector retry as forwarded to the Client: a copy of a frame already counted.
      this.prompts.forwarded(r, r.replaces);
      return;
    }
    const id = frame.id;
    const p = id === null ? undefined : this.pending.take(r.conn, opposite(r.dir), id);
    const answer = outcomeOfResponse(frame, p?.kind === "prompt");
    const outcome: Outcome = heldNeverDelivered
      ? { kind: "dropped", frame: "response", seq: r.seq, answer, held: true }
      : r.dropped
        ? { kind: "dropped", frame: "response", seq: r.seq, answer }
        : answer;
    if (!p) {
      this.requests.unmatched(r, id, outcome);
      return;
    }
    if (p.kind === "prompt") this.prompts.answered(p, r, answer, outcome);
    else this.requests.answered(p.row, r, frame, outcome);
  }

  // ---- connections ----------------------------------------------------------------------------

  private loseConnection(
    conn: number,
    reason: string,
    seq: number,
    cause: "conn-close" | "agent-exit",
  ): void {
    this.links.connectionGone(conn);
    const lost: Outcome = { kind: "lost", reason, seq, cause };
    // A frame a delay holds belongs to the Agent process it is finally delivered to: an Agent that
    // exits while it is held loses neither a held request nor the request of a held answer.
    const keep = cause === "agent-exit" ? this.heldOn(conn) : undefined;
    for (const p of this.pending.takeConnection(conn, keep)) {
      if (p.kind === "prompt") this.prompts.lost(p, lost);
      else this.requests.lost(p.row, lost);
    }
    if (keep === undefined) return;
    for (const k of keep) {
      const p = this.pending.get(conn, k.dir, k.id);
      if (p?.kind === "prompt") this.links.queuePrompt(conn, p.state.row.sessionId ?? "", p.attempt, p.state);
    }
  }

  /** The pending requests of `conn` a delay holds, or whose answer it holds: (direction, id). */
  private heldOn(conn: number): { dir: FrameRecord["dir"]; id: string | number }[] {
    const out: { dir: FrameRecord["dir"]; id: string | number }[] = [];
    for (const h of this.heldRequests.values())
      if (h.conn === conn) out.push({ dir: "client->agent", id: h.id });
    for (const { r, frame } of this.heldAnswers.values())
      if (r.conn === conn && frame.id !== null) out.push({ dir: opposite(r.dir), id: frame.id });
    return out;
  }
}
