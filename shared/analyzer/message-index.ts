/**
 * Which submission each user message belongs to. A response naming a messageId claims it for its
 * submission; a `user_message` update nobody claimed yet is attributed to the oldest pending prompt
 * attempt of that session on that connection (decisions.ts), unless a replay is in progress there.
 */
import { ATTRIBUTE_UNCLAIMED_USER_MESSAGES_TO_OLDEST_PENDING } from "../protocol/analyzer-choices.js";
import { PairMap } from "./pair-map.js";
import { addMessageId, removeMessageId, type SubmissionState } from "./submission-state.js";
import type { Attempt } from "./timeline-model.js";

interface UserMessage {
  owner: SubmissionState | null;
  /** True once a response named the messageId (an attribution is only a guess until then). */
  claimed: boolean;
}

interface QueuedPrompt {
  readonly attempt: Attempt;
  readonly state: SubmissionState;
}

/** Drops the attempts at the head of a queue that are no longer pending (an outcome never goes back to pending). */
function dropSettled(queue: QueuedPrompt[]): void {
  while (queue.length > 0 && queue[0]?.attempt.outcome.kind !== "pending") queue.shift();
}

/** The user messages of every session and the prompt attempts they may belong to. */
export class MessageIndex {
  /** User messages by (sessionId, messageId). */
  private readonly messages = new PairMap<string, string, UserMessage>();
  /** Prompt attempts that may receive an unclaimed user message, by (connection, sessionId), oldest first. */
  private readonly queues = new PairMap<number, string, QueuedPrompt[]>();
  private readonly replays = new Map<number, number>();

  /** Notes a prompt attempt that may receive an unclaimed user message. */
  queuePrompt(conn: number, sessionId: string, attempt: Attempt, state: SubmissionState): void {
    const queue = this.queues.get(conn, sessionId);
    if (!queue) {
      this.queues.set(conn, sessionId, [{ attempt, state }]);
      return;
    }
    // An attempt stops being pending for good: drop answered ones at the head now, as `seenInUpdate` would,
    // so a session that never shows user messages does not keep every prompt it ever sent here.
    dropSettled(queue);
    queue.push({ attempt, state });
  }

  /** A `session/resume` or `session/load` started on `conn`: user messages there are history until it ends. */
  replayStarted(conn: number): void {
    this.replays.set(conn, (this.replays.get(conn) ?? 0) + 1);
  }

  /** A replaying request on `conn` was answered. */
  replayEnded(conn: number): void {
    const n = (this.replays.get(conn) ?? 0) - 1;
    if (n > 0) this.replays.set(conn, n);
    else this.replays.delete(conn);
  }

  /** The connection is gone: forget its replays and queued prompts. */
  connectionGone(conn: number): void {
    this.replays.delete(conn);
    this.queues.deleteAll(conn);
  }

  /** A user message update was seen; returns the submission it was attributed to (to re-judge), if any. */
  seenInUpdate(conn: number, sessionId: string, messageId: string, seq: number): SubmissionState | null {
    if (this.messages.get(sessionId, messageId) !== undefined) return null;
    const um: UserMessage = { owner: null, claimed: false };
    this.messages.set(sessionId, messageId, um);
    if (!ATTRIBUTE_UNCLAIMED_USER_MESSAGES_TO_OLDEST_PENDING) return null;
    if ((this.replays.get(conn) ?? 0) > 0) return null;
    const queue = this.queues.get(conn, sessionId);
    if (!queue) return null;
    dropSettled(queue);
    const oldest = queue[0];
    if (!oldest) return null;
    um.owner = oldest.state;
    addMessageId(oldest.state, messageId, seq);
    return oldest.state;
  }

  /**
   * A response named `messageId` for `state`'s submission. Returns the submission that held it only
   * by attribution and lost it (to re-judge), if any.
   */
  claim(state: SubmissionState, messageId: string, seq: number): SubmissionState | null {
    const sessionId = state.row.sessionId ?? "";
    const um = this.messages.get(sessionId, messageId);
    let displaced: SubmissionState | null = null;
    if (!um) {
      this.messages.set(sessionId, messageId, { owner: state, claimed: true });
    } else {
      if (um.owner !== null && um.owner !== state && !um.claimed) {
        displaced = um.owner;
        removeMessageId(displaced, messageId);
      }
      um.owner = state;
      um.claimed = true;
    }
    addMessageId(state, messageId, seq);
    return displaced;
  }
}
