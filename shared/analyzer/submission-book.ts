/**
 * Finding the submission a `session/prompt` belongs to: valid keys group by (sessionId, key); every
 * unkeyed or invalid-key prompt opens its own submission. A new submission (unkeyed, or under a new
 * key) is checked against the latest identical prompt of its session: when that one's answer was
 * lost, or was an error, the new one is its resend (`unkeyed-resend`, `new-key-on-resend`).
 */
import type { KeyCheck } from "../protocol/idempotency-key.js";
import { PairMap } from "./pair-map.js";
import { promptPreview } from "./prompt-content.js";
import { newSubmissionRow } from "./rows.js";
import { newSubmissionState, type Resend, type SubmissionState } from "./submission-state.js";
import type { ClientSaw, Submission } from "./timeline-model.js";

/** What the book needs to know about one prompt request. */
export interface PromptFacts {
  readonly sessionId: string | null;
  readonly check: KeyCheck;
  /** The raw `idempotencyKey` value (shown for invalid keys). */
  readonly rawKey: unknown;
  readonly prompt: unknown;
  /** Canonical JSON of `prompt`. */
  readonly digest: string;
  /** True when the Client did not send it (the record has an `origin`): never a resend, never resent. */
  readonly foreign: boolean;
}

/**
 * What an earlier submission's answers told the Client, when a resend of it is worth linking: read
 * from its Client attempts' `clientSaw` (an answer the inspector forwarded under the Client's id
 * counts as seen; only `nothing-ever` is a loss).
 */
function resendReason(previous: SubmissionState): Resend["after"] | null {
  // One pass over the Client's attempts, no copy: this runs for every prompt that repeats an earlier one.
  let last: ClientSaw | undefined;
  let lost = false;
  for (const a of previous.row.attempts) {
    if (a.sender.kind !== "client") continue;
    const saw = a.clientSaw;
    if (saw.kind === "nothing-yet" || sawResult(saw)) return null;
    if (saw.kind === "nothing-ever") lost = true;
    last = saw;
  }
  if (last === undefined) return null;
  if (last.kind === "error" || (last.kind === "forwarded" && last.code !== null)) return "error";
  return lost ? "lost" : null;
}

/** True when the Client saw a result (its own or forwarded), not an error. */
function sawResult(saw: ClientSaw): boolean {
  return saw.kind === "answer" || (saw.kind === "forwarded" && saw.code === null);
}

/** The submission among a key's owners whose session is `session` (a missing sessionId is ""). */
function inSession(
  owners: SubmissionState | SubmissionState[],
  session: string,
): SubmissionState | undefined {
  if (!Array.isArray(owners)) return (owners.row.sessionId ?? "") === session ? owners : undefined;
  for (const o of owners) if ((o.row.sessionId ?? "") === session) return o;
  return undefined;
}

function shownKey(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}

/** Every submission, and the indexes that find the right one for the next prompt. */
export class SubmissionBook {
  /** Every submission row, in order of first attempt. */
  readonly rows: Submission[] = [];
  /**
   * Keyed submissions by key, in any session (usually one), at most one per session: the one of
   * (sessionId, key) is found among them, so a new key costs one lookup in one map.
   */
  private readonly byKey = new Map<string, SubmissionState | SubmissionState[]>();
  /** The latest Client submission (unkeyed or keyed) by (sessionId, canonical prompt). */
  private readonly lastByPrompt = new PairMap<string, string, SubmissionState>();

  /**
   * The submission for this prompt; `created` is true when it is new (a new key in its session, or
   * any unkeyed or invalid-key prompt). `newId` is called only when a row is created.
   */
  submissionFor(
    p: PromptFacts,
    newId: () => number,
    rev: number,
  ): { state: SubmissionState; created: boolean } {
    const session = p.sessionId ?? "";
    if (p.check.kind === "valid") {
      const key = p.check.key;
      const owners = this.byKey.get(key);
      const existing = owners === undefined ? undefined : inSession(owners, session);
      if (existing) return { state: existing, created: false };
      const state = this.create(p, newId(), rev, key, "valid", null);
      this.linkResend(session, p, state, "new-key");
      if (owners === undefined) this.byKey.set(key, state);
      else if (Array.isArray(owners)) owners.push(state);
      else this.byKey.set(key, [owners, state]);
      return { state, created: true };
    }
    if (p.check.kind === "invalid") {
      const invalid = { reason: p.check.reason, shown: shownKey(p.rawKey) };
      return { state: this.create(p, newId(), rev, null, "invalid", invalid), created: true };
    }
    const state = this.create(p, newId(), rev, null, "absent", null);
    this.linkResend(session, p, state, "unkeyed");
    return { state, created: true };
  }

  /**
   * Links a new Client submission to the latest identical prompt of its session when that one's
   * answer was lost or an error (the earlier one is re-judged by the caller through `resend.of`).
   */
  private linkResend(session: string, p: PromptFacts, state: SubmissionState, kind: Resend["kind"]): void {
    if (p.foreign) return;
    const previous = this.lastByPrompt.get(session, p.digest);
    this.lastByPrompt.set(session, p.digest, state);
    if (!previous || previous.resentAs !== null) return;
    const after = resendReason(previous);
    if (after === null) return;
    state.resend = { of: previous, after, kind };
    state.row.resendOf = previous.row.id;
    previous.resentAs = state;
    previous.row.resentAs = state.row.id;
  }

  /** Every keyed submission using this key string, in any session. */
  withKey(key: string): readonly SubmissionState[] {
    const owners = this.byKey.get(key);
    if (owners === undefined) return [];
    return Array.isArray(owners) ? owners : [owners];
  }

  private create(
    p: PromptFacts,
    id: number,
    rev: number,
    key: string | null,
    keyStatus: Submission["keyStatus"],
    invalidKey: Submission["invalidKey"],
  ): SubmissionState {
    const row = newSubmissionRow(id, rev, p.sessionId, key, keyStatus, invalidKey, promptPreview(p.prompt));
    this.rows.push(row);
    return newSubmissionState(row);
  }
}
