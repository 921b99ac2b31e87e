/**
 * The Agent side of idempotency keys: "a helper that records keys for a session" (RFD, Plan).
 * It validates keys, answers retries with the original messageId, makes retries of a held prompt
 * wait for it, and never admits a second insert for a recorded key. It stores nothing itself:
 * the Agent's session store stays the record, and the ledger rebuilds its per-session cache from
 * it (through `KeyLedgerHistory`) on the first keyed prompt of each session after a restart.
 *
 * Usage, per `session/prompt`: `admit()`; for `new`, insert the message with the returned
 * messageId (storing the key with it), then call `inserted()`; if the prompt is withdrawn or
 * fails before insertion, call `withdrawn()` instead. See docs/agent-key-ledger.md.
 */

import { canonicalJson } from "../protocol/canonical-json.js";
import { checkIdempotencyKey } from "../protocol/idempotency-key.js";
import {
  DEFAULT_REUSED_KEY_POLICY,
  derivedMessageId,
  ErrorCode,
  type ReusedKeyPolicy,
} from "./peer-choices.js";

/** One retained user message as the ledger needs to see it. */
export interface StoredUserMessage {
  readonly messageId: string;
  /** The idempotency key stored with the message, if it had one. */
  readonly key?: string;
  /** The prompt's fingerprint (see `promptFingerprint`), when the store can give it. */
  readonly fingerprint?: string;
}

/** Read access to a session's stored history: the pluggable part of the ledger. */
export interface KeyLedgerHistory {
  /** Every retained user message of the session, oldest first. Called at most once per session per ledger. */
  userMessages(sessionId: string): Promise<readonly StoredUserMessage[]> | readonly StoredUserMessage[];
}

/** How a pending keyed submission ended, as every request waiting on it learns. */
export type KeyOutcome =
  | { readonly kind: "inserted"; readonly messageId: string }
  | { readonly kind: "withdrawn"; readonly code: number; readonly message: string };

/** What the Agent should do with a `session/prompt` request, by its key. */
export type PromptAdmission =
  /** The key is malformed: answer -32602 with `reason`, record nothing. */
  | { readonly kind: "invalid"; readonly reason: string }
  /** No key: a new submission without duplicate detection. */
  | { readonly kind: "unkeyed" }
  /** A new keyed submission: insert the message as `messageId`, then call `inserted` (or `withdrawn`). */
  | { readonly kind: "new"; readonly key: string; readonly messageId: string }
  /** A retry of an inserted message: answer `messageId`, start no work. */
  | { readonly kind: "retry"; readonly messageId: string }
  /** A recorded key with a different prompt, under the `reject` policy: answer -32602, keep the record. */
  | { readonly kind: "mismatch"; readonly messageId: string }
  /** A retry of a prompt that is not inserted yet: answer it when `outcome` settles. */
  | { readonly kind: "wait"; readonly key: string; readonly outcome: Promise<KeyOutcome> };

/** Options of an `AgentKeyLedger`. */
export interface AgentKeyLedgerOptions {
  /** Where recorded keys are found after a restart. Omit for an Agent that keeps sessions in memory only. */
  readonly history?: KeyLedgerHistory;
  /** The messageId for a keyed prompt. Default: UUIDv5 of (sessionId, key), see `derivedMessageId`. */
  readonly messageIdFor?: (sessionId: string, key: string) => string;
  /** What to do with a recorded key and a different prompt. Default: answer as for a retry. */
  readonly reusedKey?: ReusedKeyPolicy;
}

interface Recorded {
  readonly messageId: string;
  readonly fingerprint?: string;
}

interface Pending {
  readonly messageId: string;
  readonly fingerprint?: string;
  readonly waiters: Array<(outcome: KeyOutcome) => void>;
}

interface SessionKeys {
  readonly recorded: Map<string, Recorded>;
  readonly pending: Map<string, Pending>;
}

/** A stable text form of a prompt's content blocks, for comparing a retry with the original. */
export function promptFingerprint(prompt: unknown): string {
  return canonicalJson(prompt ?? null);
}

/** Records idempotency keys per session and decides, for each keyed prompt, insert, retry or wait. */
export class AgentKeyLedger {
  private readonly sessions = new Map<string, Promise<SessionKeys>>();
  /** The loaded entries of `sessions`, for synchronous questions. */
  private readonly loaded = new Map<string, SessionKeys>();
  private readonly messageIdFor: (sessionId: string, key: string) => string;
  private readonly reusedKey: ReusedKeyPolicy;

  constructor(private readonly options: AgentKeyLedgerOptions = {}) {
    this.messageIdFor = options.messageIdFor ?? derivedMessageId;
    this.reusedKey = options.reusedKey ?? DEFAULT_REUSED_KEY_POLICY;
  }

  /**
   * Decides what to do with a prompt whose raw `idempotencyKey` value is `rawKey` (pass the
   * params field as received: `undefined` when missing). `fingerprint` is only compared under the
   * `reject` policy. A `new` admission claims the key until `inserted` or `withdrawn` is called.
   */
  async admit(sessionId: string, rawKey: unknown, fingerprint?: string): Promise<PromptAdmission> {
    const check = checkIdempotencyKey(rawKey);
    if (check.kind === "invalid") return { kind: "invalid", reason: check.reason };
    if (check.kind === "absent") return { kind: "unkeyed" };
    const key = check.key;
    const keys = await this.keysOf(sessionId);
    // From here on everything is synchronous, so two attempts of one key can't both claim it.
    const recorded = keys.recorded.get(key);
    if (recorded) return this.answerRecorded(recorded, fingerprint);
    const pending = keys.pending.get(key);
    if (pending) {
      if (this.differs(pending.fingerprint, fingerprint))
        return { kind: "mismatch", messageId: pending.messageId };
      return { kind: "wait", key, outcome: new Promise((resolve) => pending.waiters.push(resolve)) };
    }
    const messageId = this.messageIdFor(sessionId, key);
    keys.pending.set(key, { messageId, fingerprint, waiters: [] });
    return { kind: "new", key, messageId };
  }

  /** The claimed prompt for `key` is inserted (and stored): record the key and answer every waiting retry. */
  async inserted(sessionId: string, key: string): Promise<void> {
    const keys = await this.keysOf(sessionId);
    const pending = keys.pending.get(key);
    if (!pending) return;
    keys.pending.delete(key);
    keys.recorded.set(key, { messageId: pending.messageId, fingerprint: pending.fingerprint });
    for (const wake of pending.waiters) wake({ kind: "inserted", messageId: pending.messageId });
  }

  /**
   * The claimed prompt for `key` was withdrawn or failed before insertion: forget the claim (errors
   * record nothing) and answer every waiting retry with `code` (default -32800, request cancelled).
   */
  async withdrawn(
    sessionId: string,
    key: string,
    code: number = ErrorCode.requestCancelled,
    message = "Request cancelled",
  ): Promise<void> {
    const keys = await this.keysOf(sessionId);
    const pending = keys.pending.get(key);
    if (!pending) return;
    keys.pending.delete(key);
    for (const wake of pending.waiters) wake({ kind: "withdrawn", code, message });
  }

  /** Whether `key` is claimed by a prompt that is not inserted yet. */
  isPending(sessionId: string, key: string): boolean {
    return this.peek(sessionId)?.pending.has(key) ?? false;
  }

  /** Records the keys of messages copied or inserted outside `admit` (e.g. by an import), so they are recognised. */
  async record(sessionId: string, key: string, messageId: string, fingerprint?: string): Promise<void> {
    (await this.keysOf(sessionId)).recorded.set(key, { messageId, fingerprint });
  }

  /** Forgets a session's keys (its messages are gone, e.g. after `session/delete`); pending claims are withdrawn. */
  forgetSession(sessionId: string): void {
    const keys = this.peek(sessionId);
    this.sessions.delete(sessionId);
    this.loaded.delete(sessionId);
    if (!keys) return;
    for (const pending of keys.pending.values()) {
      for (const wake of pending.waiters) {
        wake({ kind: "withdrawn", code: ErrorCode.requestCancelled, message: "Session deleted" });
      }
    }
  }

  private answerRecorded(recorded: Recorded, fingerprint: string | undefined): PromptAdmission {
    if (this.differs(recorded.fingerprint, fingerprint))
      return { kind: "mismatch", messageId: recorded.messageId };
    return { kind: "retry", messageId: recorded.messageId };
  }

  private differs(original: string | undefined, attempt: string | undefined): boolean {
    return (
      this.reusedKey === "reject" && original !== undefined && attempt !== undefined && original !== attempt
    );
  }

  private peek(sessionId: string): SessionKeys | undefined {
    return this.loaded.get(sessionId);
  }

  private keysOf(sessionId: string): Promise<SessionKeys> {
    let keys = this.sessions.get(sessionId);
    if (!keys) {
      keys = this.load(sessionId);
      this.sessions.set(sessionId, keys);
      // A failed history read must not poison the session: the next prompt tries again.
      keys.catch(() => {
        if (this.sessions.get(sessionId) === keys) this.sessions.delete(sessionId);
      });
    }
    return keys;
  }

  private async load(sessionId: string): Promise<SessionKeys> {
    const keys: SessionKeys = { recorded: new Map(), pending: new Map() };
    const stored = this.options.history ? await this.options.history.userMessages(sessionId) : [];
    for (const message of stored) {
      if (message.key !== undefined) {
        keys.recorded.set(message.key, { messageId: message.messageId, fingerprint: message.fingerprint });
      }
    }
    this.loaded.set(sessionId, keys);
    return keys;
  }
}
