/**
 * The Client side of idempotency keys: key generation by default (RFD, Plan). A tracker owns one
 * key per submission, created when the user submits (not when a request is written), keeps the
 * pending input in a pluggable store so a restarted Client can resend it, and records every
 * attempt (a JSON-RPC request with its own id) and its outcome. Transport and reconnects are the
 * caller's job: the tracker says what is pending and what to resend. See
 * docs/client-submission-tracker.md.
 */

import { DEFAULT_MAX_PENDING_AGE_MS, ErrorCode } from "./peer-choices.js";
import { randomUuid } from "./uuid.js";

/** What happened to one attempt. */
export type AttemptOutcome =
  /** `messageId` null: the answer carried none (a v1 Agent answers without one). */
  | { readonly kind: "answered"; readonly messageId: string | null }
  | { readonly kind: "error"; readonly code: number; readonly message: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "disconnected"; readonly reason: string };

/** One `session/prompt` request sent for a submission. */
export interface TrackedAttempt {
  /** 1, 2, ... within the submission. */
  readonly n: number;
  /** Which connection of the Client carried it (1, 2, ...). */
  readonly conn: number;
  /** The JSON-RPC id, unique on its connection only. */
  readonly requestId: number | string;
  readonly sentAt: number;
  settledAt?: number;
  outcome?: AttemptOutcome;
  /** The messageId of an answer that arrived after the attempt had timed out (null: it carried none). */
  lateMessageId?: string | null;
}

/** Where a submission stands. `stale`: pending for longer than the resend limit; shown, not resent. */
export type SubmissionStatus = "pending" | "answered" | "failed" | "stale";

/** One user submission: the input, its key and every attempt to deliver it. */
export interface TrackedSubmission {
  /** Position in the tracker, 1, 2, ... (as people count; a pending file from before may hold a 0). */
  readonly index: number;
  /** The idempotency key, or null for an unkeyed (unsafe) client. */
  readonly key: string | null;
  /** The `session/prompt` content blocks. */
  readonly prompt: readonly unknown[];
  readonly submittedAt: number;
  status: SubmissionStatus;
  /** The messageId the Agent answered with (reconciled with every later answer). */
  messageId?: string;
  /** Every distinct messageId seen: more than one means the Agent inserted twice. */
  messageIds: string[];
  /** The error that made the submission fail, when it failed. */
  error?: { readonly code: number; readonly message: string };
  readonly attempts: TrackedAttempt[];
}

/** What a tracker persists: the session it prompts and its submissions. */
export interface TrackerSnapshot {
  sessionId?: string;
  submissions: TrackedSubmission[];
}

/** Durable storage for a tracker's pending input (a file, localStorage, a database row...). */
export interface SubmissionStore {
  /** The last saved snapshot, if any. */
  load(): Promise<TrackerSnapshot | undefined> | TrackerSnapshot | undefined;
  /** Replaces the saved snapshot; resolve only once it is durable. */
  save(snapshot: TrackerSnapshot): Promise<void> | void;
}

/** Options of a `ClientSubmissionTracker`. */
export interface SubmissionTrackerOptions {
  readonly store?: SubmissionStore;
  /** Whether submissions get a key. `false` is the unsafe client, kept for contrast. Default true. */
  readonly keyed?: boolean;
  /** Key generator. Default: a random UUIDv4 (RFC 9562). */
  readonly newKey?: () => string;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** Errors after which resending the same prompt cannot help: the submission fails. */
const FINAL_ERRORS = new Set<number>([
  ErrorCode.invalidParams,
  ErrorCode.requestCancelled,
  ErrorCode.resourceNotFound,
  ErrorCode.methodNotFound,
  ErrorCode.invalidRequest,
]);

/** Owns the keys, pending input and attempt log of a Client's submissions. */
export class ClientSubmissionTracker {
  private snapshot: TrackerSnapshot = { submissions: [] };
  private saving: Promise<void> = Promise.resolve();
  private readonly keyed: boolean;
  private readonly newKey: () => string;
  private readonly now: () => number;

  constructor(private readonly options: SubmissionTrackerOptions = {}) {
    this.keyed = options.keyed ?? true;
    this.newKey = options.newKey ?? randomUuid;
    this.now = options.now ?? Date.now;
  }

  /** Loads pending submissions a previous run left in the store. Call once, before `submit`. */
  async restore(): Promise<TrackerSnapshot> {
    const loaded = await this.options.store?.load();
    if (loaded) this.snapshot = { sessionId: loaded.sessionId, submissions: [...loaded.submissions] };
    return this.snapshot;
  }

  /**
   * Drops submissions an earlier run settled (answered or failed), keeping pending and stale ones,
   * and forgets the session when nothing is left to resend to it.
   */
  async forgetSettled(): Promise<void> {
    const kept = this.snapshot.submissions.filter((s) => s.status === "pending" || s.status === "stale");
    this.snapshot = {
      sessionId: kept.some((s) => s.status === "pending") ? this.snapshot.sessionId : undefined,
      submissions: kept,
    };
    await this.persist();
  }

  /** The session these submissions go to, once known. */
  get sessionId(): string | undefined {
    return this.snapshot.sessionId;
  }

  /** Remembers the session (persisted, so a restarted Client resumes it). */
  async setSessionId(sessionId: string): Promise<void> {
    this.snapshot.sessionId = sessionId;
    await this.persist();
  }

  /** Every submission, oldest first. */
  all(): readonly TrackedSubmission[] {
    return this.snapshot.submissions;
  }

  /** Submissions still waiting for a messageId, oldest first: what to resend after reconnecting. */
  pending(): TrackedSubmission[] {
    return this.snapshot.submissions.filter((s) => s.status === "pending");
  }

  /**
   * A new submission: creates its key now (the RFD: at submit time, stored with the pending input)
   * and resolves once it is durable. `key` lets an application that persists input pass its own.
   */
  async submit(prompt: readonly unknown[], key?: string): Promise<TrackedSubmission> {
    const submission: TrackedSubmission = {
      index: this.snapshot.submissions.reduce((max, s) => Math.max(max, s.index + 1), 1),
      key: key ?? (this.keyed ? this.newKey() : null),
      prompt,
      submittedAt: this.now(),
      status: "pending",
      messageIds: [],
      attempts: [],
    };
    this.snapshot.submissions.push(submission);
    await this.persist();
    return submission;
  }

  /**
   * Marks pending submissions older than `maxAgeMs` as `stale`: the RFD says a Client that held a
   * prompt for a long time shows it to the user instead of resending it. Returns them.
   */
  async markStale(maxAgeMs = DEFAULT_MAX_PENDING_AGE_MS): Promise<TrackedSubmission[]> {
    const limit = this.now() - maxAgeMs;
    const stale = this.pending().filter((s) => s.submittedAt < limit);
    for (const s of stale) s.status = "stale";
    if (stale.length > 0) await this.persist();
    return stale;
  }

  /** Records that an attempt for `submission` was sent as request `requestId` on connection `conn`. */
  attemptSent(submission: TrackedSubmission, conn: number, requestId: number | string): TrackedAttempt {
    const attempt: TrackedAttempt = {
      n: submission.attempts.length + 1,
      conn,
      requestId,
      sentAt: this.now(),
    };
    submission.attempts.push(attempt);
    return attempt;
  }

  /**
   * Records an attempt's outcome and updates the submission: an answer settles it (and is
   * reconciled with earlier answers), a final error fails it, anything else leaves it pending
   * with the same key for the next attempt (errors record nothing on the Agent).
   */
  async attemptSettled(
    submission: TrackedSubmission,
    attempt: TrackedAttempt,
    outcome: AttemptOutcome,
  ): Promise<void> {
    if (attempt.outcome) return;
    attempt.outcome = outcome;
    attempt.settledAt = this.now();
    if (outcome.kind === "answered") {
      const id = outcome.messageId;
      if (id !== null && !submission.messageIds.includes(id)) submission.messageIds.push(id);
      if (id !== null) submission.messageId ??= id;
      submission.status = "answered";
      submission.error = undefined;
    } else if (
      outcome.kind === "error" &&
      submission.status === "pending" &&
      FINAL_ERRORS.has(outcome.code)
    ) {
      submission.status = "failed";
      submission.error = { code: outcome.code, message: outcome.message };
    }
    await this.persist();
  }

  /**
   * An attempt that already timed out was answered after all: its messageId is reconciled with the
   * submission's (a different one means the Agent inserted twice).
   */
  async attemptAnsweredLate(
    submission: TrackedSubmission,
    attempt: TrackedAttempt,
    messageId: string | null,
  ): Promise<void> {
    attempt.lateMessageId = messageId;
    if (messageId !== null && !submission.messageIds.includes(messageId))
      submission.messageIds.push(messageId);
    if (submission.status === "pending") {
      if (messageId !== null) submission.messageId ??= messageId;
      submission.status = "answered";
    }
    await this.persist();
  }

  /** Marks a pending submission failed (e.g. its retry limit is reached). */
  async giveUp(submission: TrackedSubmission, reason: string): Promise<void> {
    if (submission.status !== "pending") return;
    submission.status = "failed";
    submission.error = { code: 0, message: reason };
    await this.persist();
  }

  /** Resolves when every save so far is durable. */
  flush(): Promise<void> {
    return this.saving;
  }

  private persist(): Promise<void> {
    const store = this.options.store;
    if (!store) return this.saving;
    const snapshot = JSON.parse(JSON.stringify(this.snapshot)) as TrackerSnapshot;
    this.saving = this.saving.then(() => store.save(snapshot));
    return this.saving;
  }
}
