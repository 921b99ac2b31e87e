/**
 * The Client's `session/prompt` requests as attempts of submissions: each one joins (or opens) its
 * submission, and its answer, a `$/cancel_request` naming it, a user message the Agent shows, its
 * loss and a leak of its key in an Agent frame each update the attempt and re-judge the submission.
 */
import type { NotificationFrame, RequestFrame } from "../protocol/frame.js";
import { checkPromptParamsKey } from "../protocol/idempotency-key.js";
import { asJsonObject } from "../protocol/json-object.js";
import { isUserMessageUpdate } from "../protocol/user-message-updates.js";
import type { FrameRecord } from "../trace/record.js";
import { appended } from "./appended.js";
import { KeyLeakIndex } from "./key-leak.js";
import type { LifecycleRows, RowContext } from "./lifecycle.js";
import type { MessageIndex } from "./message-index.js";
import { PairMap } from "./pair-map.js";
import type { Pending, PendingRequests } from "./pending-requests.js";
import { canonicalDigest } from "./prompt-content.js";
import { newAttempt } from "./rows.js";
import { SubmissionBook } from "./submission-book.js";
import type { SubmissionState } from "./submission-state.js";
import type { Attempt, Outcome, Submission } from "./timeline-model.js";
import type { VerdictTally } from "./verdict-tally.js";

const MAX_LEAK_SEQS = 20;

function requestKey(conn: number, id: string | number): string {
  return `${conn}|${typeof id}|${String(id)}`;
}

/** A pending prompt attempt, with the submission it belongs to. */
export type PendingPrompt = Extract<Pending, { kind: "prompt" }>;

/** The analyzer's parts the prompt attempts read and update besides their own. */
export interface PromptAttemptsParts {
  readonly ctx: RowContext;
  readonly lifecycle: Pick<LifecycleRows, "versionOf">;
  readonly links: MessageIndex;
  readonly pending: PendingRequests;
  readonly tally: VerdictTally;
}

/** Every submission and its attempts, kept judged as the frames about them arrive. */
export class PromptAttempts {
  private readonly book = new SubmissionBook();
  private readonly leaks = new KeyLeakIndex();
  private readonly leakFound = new Set<string>();
  /**
   * The submission of each prompt request by connection and id, so an inspector copy joins its original's
   * (a Map tells a string id from a number id, so no composite key string is built per prompt).
   */
  private readonly byRequest = new PairMap<number, string | number, SubmissionState>();
  /**
   * Inspector attempts by connection and tap-owned id (the tap numbers its retries per connection,
   * so `acp-retry-inspector:retry:1` recurs on every connection), until their answer was forwarded.
   */
  private readonly inspectorAttempts = new Map<string, { attempt: Attempt; state: SubmissionState }>();

  constructor(private readonly parts: PromptAttemptsParts) {}

  /** Every submission row, in order of first attempt. */
  get rows(): Submission[] {
    return this.book.rows;
  }

  /** Adds a Client's `session/prompt` as an attempt of its submission. */
  sent(r: FrameRecord, frame: RequestFrame): void {
    const { ctx, lifecycle, links, pending, tally } = this.parts;
    const params = asJsonObject(frame.params);
    const sessionId = typeof params?.sessionId === "string" ? params.sessionId : null;
    const check = checkPromptParamsKey(params);
    const digest = canonicalDigest(params?.prompt);
    const foreign = r.origin !== undefined;
    const facts = {
      sessionId,
      check,
      rawKey: params?.idempotencyKey,
      prompt: params?.prompt,
      digest,
      foreign,
    };
    // An inspector retry copies a Client attempt: it joins that attempt's submission (also when unkeyed).
    const original =
      r.origin === "inspector" && r.replaces !== undefined
        ? this.byRequest.get(r.conn, r.replaces)
        : undefined;
    const { state, created } = original
      ? { state: original, created: false }
      : this.book.submissionFor(facts, () => ctx.newRowId(), ctx.revision());
    if (created) {
      const version = lifecycle.versionOf(r.conn);
      state.row.protocolVersion = version;
      if (version === 1) state.v1 = true;
      // A v1 resend is judged by v1 too, whatever the earlier one's connection said.
      if (state.resend?.of.v1) state.v1 = true;
    }
    if (created && check.kind === "valid") this.leaks.add(check.key);
    if (r.origin === undefined) this.byRequest.set(r.conn, frame.id, state);
    const attempt = newAttempt(r, frame.id);
    if (attempt.origin === "inspector" && typeof frame.id === "string")
      this.inspectorAttempts.set(requestKey(r.conn, frame.id), { attempt, state });
    state.row.attempts = appended(state.row.attempts, attempt);
    state.digests = appended(state.digests, digest);
    if (!r.dropped) {
      pending.add(r.conn, r.dir, frame.id, { kind: "prompt", attempt, state });
      links.queuePrompt(r.conn, sessionId ?? "", attempt, state);
    }
    tally.judge(state);
    // The earlier submission this one resends is settled by it: judge it again.
    if (created && state.resend) tally.judge(state.resend.of);
  }

  /** Applies a notification about prompts: a user message the Agent shows, or a `$/cancel_request`. */
  notified(r: FrameRecord, frame: NotificationFrame): void {
    const { links, pending, tally } = this.parts;
    const params = asJsonObject(frame.params);
    if (!params) return;
    if (frame.method === "session/update" && r.dir === "agent->client") {
      const update = asJsonObject(params.update);
      const kind = update?.sessionUpdate;
      if (isUserMessageUpdate(kind) && typeof update?.messageId === "string") {
        const sessionId = typeof params.sessionId === "string" ? params.sessionId : "";
        const attributed = links.seenInUpdate(r.conn, sessionId, update.messageId, r.seq);
        if (attributed) tally.judge(attributed);
      }
    } else if (frame.method === "$/cancel_request" && !r.dropped) {
      const requestId = params.requestId;
      if (typeof requestId !== "string" && typeof requestId !== "number") return;
      const p = pending.get(r.conn, r.dir, requestId);
      if (p?.kind !== "prompt") return;
      p.attempt.cancelSeq = r.seq;
      p.attempt.frameSeqs = appended(p.attempt.frameSeqs, r.seq);
      if (p.state.row.keyStatus === "valid") {
        p.state.cancelGroups.push(p.state.row.attempts.filter((a) => a.outcome.kind === "pending"));
      }
      tally.judge(p.state);
    }
  }

  /** Completes an attempt with the response `r`: `answer` is the Agent's, `outcome` what the Client got. */
  answered(p: PendingPrompt, r: FrameRecord, answer: Outcome, outcome: Outcome): void {
    const { links, tally } = this.parts;
    const a = p.attempt;
    a.outcome = outcome;
    a.responseSeq = r.seq;
    a.latencyMs = this.parts.ctx.timesKnown?.() === false ? null : r.ts - a.sentAt;
    a.frameSeqs = appended(a.frameSeqs, r.seq);
    if (answer.kind === "inserted" && answer.messageId === null) {
      p.state.nullInserts++;
      // A v1 answer (a stopReason, no messageId) shows the session speaks v1 when no initialize said otherwise.
      if (answer.stopReason !== undefined && this.parts.lifecycle.versionOf(r.conn) === null)
        p.state.v1 = true;
    } else if (answer.kind === "inserted" && answer.messageId !== null) {
      const displaced = links.claim(p.state, answer.messageId, r.seq);
      if (displaced) tally.judge(displaced);
      p.state.row.finalMessageId ??= answer.messageId;
    }
    tally.judge(p.state);
  }

  /**
   * The tap forwarded the answer to an inspector attempt (`tapId`) to the Client, rewritten to the
   * Client's id (trace `origin: "inspector"` with `replaces`): the Client saw that answer. The
   * attempt is the one with that id on the same connection `r.conn`.
   */
  forwarded(r: FrameRecord, tapId: string | number): void {
    if (typeof tapId !== "string") return;
    const k = requestKey(r.conn, tapId);
    const found = this.inspectorAttempts.get(k);
    if (!found) return;
    this.inspectorAttempts.delete(k);
    found.attempt.forwarded = true;
    found.attempt.frameSeqs = appended(found.attempt.frameSeqs, r.seq);
    this.parts.tally.judge(found.state);
  }

  /** Ends an attempt whose connection or Agent went away before the answer. */
  lost(p: PendingPrompt, outcome: Outcome): void {
    p.attempt.outcome = outcome;
    this.parts.tally.judge(p.state);
  }

  /**
   * Looks for known keys in a message an Agent sent, and marks the submissions whose key leaked.
   * `claimed`: for a preview, the keys the hub found in the whole frame (`previewLeaks`).
   */
  scanForLeaks(message: unknown, seq: number, claimed?: readonly unknown[]): void {
    if (this.leaks.size === 0) return;
    const found = this.leakFound;
    this.leaks.scan(message, found);
    if (claimed) this.leaks.acceptClaimed(claimed, found);
    if (found.size === 0) return;
    for (const key of found) {
      for (const state of this.book.withKey(key)) {
        if (state.leakSeqs.length < MAX_LEAK_SEQS) state.leakSeqs.push(seq);
        this.parts.tally.judge(state);
      }
    }
    found.clear();
  }
}
