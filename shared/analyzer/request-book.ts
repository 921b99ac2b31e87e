/**
 * The rows of every request but a Client's `session/prompt`: one per request frame, completed by
 * its response or by the loss of its connection, checked for `duplicating-resend`; a response that
 * answers no known request gets an unmatched row of its own.
 */
import type { JsonRpcId, RequestFrame, ResponseFrame } from "../protocol/frame.js";
import { asJsonObject } from "../protocol/json-object.js";
import { retryClassOf } from "../protocol/method-catalogue.js";
import type { FrameRecord } from "../trace/record.js";
import { sessionIdOf } from "./frame-params.js";
import type { LifecycleRows, RowContext } from "./lifecycle.js";
import type { MessageIndex } from "./message-index.js";
import { answerLost } from "./outcome.js";
import type { PendingRequests } from "./pending-requests.js";
import { canonicalDigest } from "./prompt-content.js";
import { initialOutcome, newRequestRow } from "./rows.js";
import type { Outcome, RequestRow, VerdictHit } from "./timeline-model.js";
import type { VerdictTally } from "./verdict-tally.js";
import { verdictSeverity } from "./verdicts.js";

/** Requests whose answer arrives after replayed history (user messages seen meanwhile are not new inserts). */
const REPLAY_METHODS = new Set(["session/resume", "session/load"]);

/** The analyzer's parts the request rows read and update besides their own. */
export interface RequestBookParts {
  readonly ctx: RowContext;
  readonly lifecycle: LifecycleRows;
  readonly links: MessageIndex;
  readonly pending: PendingRequests;
  readonly tally: VerdictTally;
}

/** Every request row, in order of appearance, and the index that spots duplicating resends. */
export class RequestBook {
  /** Every request row, in order of the frame that created it. */
  readonly rows: RequestRow[] = [];
  /** The latest duplicating request per `method \0 canonical params`. */
  private readonly lastDuplicating = new Map<string, RequestRow>();

  constructor(private readonly parts: RequestBookParts) {}

  /** Adds the row of a request frame and, unless fault injection dropped it, waits for its answer. */
  sent(r: FrameRecord, frame: RequestFrame): void {
    const { ctx, lifecycle, links, pending } = this.parts;
    const retryClass = retryClassOf(frame.method, "request");
    const row = newRequestRow(
      ctx.newRowId(),
      ctx.revision(),
      r,
      frame.id,
      frame.method,
      retryClass,
      initialOutcome(r),
      sessionIdOf(frame.params),
    );
    this.rows.push(row);
    ctx.changes.requests.add(row);
    // Only the Client's own requests can be its resends (not the tap's or the inspector's copies).
    if (retryClass === "duplicating" && r.dir === "client->agent" && r.origin === undefined)
      this.checkDuplicatingResend(row, frame);
    if (frame.method === "initialize") {
      const version = asJsonObject(frame.params)?.protocolVersion;
      const c = lifecycle.conn(r.conn);
      if (typeof version === "number" && c.protocolVersion === null) c.protocolVersion = version;
    }
    if (r.dropped) return;
    if (REPLAY_METHODS.has(frame.method)) links.replayStarted(r.conn);
    pending.add(r.conn, r.dir, frame.id, { kind: "request", row });
  }

  /** Completes a request row with the response `r` and what it ended as. */
  answered(row: RequestRow, r: FrameRecord, frame: ResponseFrame, outcome: Outcome): void {
    row.outcome = outcome;
    row.responseSeq = r.seq;
    row.latencyMs = this.parts.ctx.timesKnown?.() === false ? null : r.ts - row.sentAt;
    this.touch(row);
    const result = frame.kind === "result" ? asJsonObject(frame.result) : null;
    if (row.method === "initialize" && typeof result?.protocolVersion === "number") {
      this.parts.lifecycle.conn(r.conn).protocolVersion = result.protocolVersion;
    }
    if (row.retryClass === "duplicating" && typeof result?.sessionId === "string") {
      row.createdSessionId = result.sessionId;
    }
    if (row.method !== null && REPLAY_METHODS.has(row.method)) this.parts.links.replayEnded(r.conn);
  }

  /** Adds the row of a response that answers no pending request. */
  unmatched(r: FrameRecord, id: JsonRpcId, outcome: Outcome): void {
    const { ctx } = this.parts;
    const row = newRequestRow(ctx.newRowId(), ctx.revision(), r, id, null, "unclassified", outcome);
    this.rows.push(row);
    ctx.changes.requests.add(row);
  }

  /** Ends a request row whose connection or Agent went away before the answer. */
  lost(row: RequestRow, outcome: Outcome): void {
    row.outcome = outcome;
    this.touch(row);
  }

  private checkDuplicatingResend(row: RequestRow, frame: RequestFrame): void {
    const k = `${frame.method}\u0000${canonicalDigest(frame.params)}`;
    const previous = this.lastDuplicating.get(k);
    this.lastDuplicating.set(k, row);
    if (!previous || !answerLost(previous.outcome)) return;
    const earlier = `conn #${previous.conn} id ${JSON.stringify(previous.jsonRpcId)} (seq ${previous.requestSeq})`;
    // A v1 session is judged by v1, which the RFD's method audit does not cover.
    const v1 = this.parts.lifecycle.versionOf(row.conn) === 1;
    const name = v1 ? "v1-resend" : "duplicating-resend";
    const hit: VerdictHit = {
      name,
      severity: verdictSeverity(name),
      detail: v1
        ? `v1 has no keys: this ${frame.method} resends ${earlier} after its answer was lost, and may create a second session`
        : `${frame.method} resent with the same params after the answer to ${earlier} was lost`,
      seqs: [previous.requestSeq, row.requestSeq].filter((s): s is number => s !== null),
    };
    this.parts.tally.assign(row, [hit]);
  }

  private touch(row: RequestRow): void {
    row.rev = this.parts.ctx.revision();
    this.parts.ctx.changes.requests.add(row);
  }
}
