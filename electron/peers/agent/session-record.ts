/**
 * The records of a stored session: one JSONL file per session, one record per line, append-only.
 * Each line is `{"rec":<record JSON>,"crc":"<crc32 of the record JSON text, 8 hex>"}`, so a torn or
 * damaged line is detected on read (see session-file.ts).
 */

/** First record of every session file. */
export interface SessionHeaderRecord {
  readonly t: "session";
  readonly sessionId: string;
  readonly cwd: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** The session this one was forked from. */
  readonly forkOf?: string;
}

/**
 * A user message, inserted. The idempotency key is stored in the same record (the same write) as
 * the message: it is the Agent's private record and is never sent to a Client.
 */
export interface UserRecord {
  readonly t: "user";
  readonly messageId: string;
  readonly key?: string;
  /** The prompt's content blocks, as received. */
  readonly content: readonly unknown[];
  readonly at: string;
}

/** The side effect of a turn happened ("deploy #N"); written once per user message, never repeated. */
export interface EffectRecord {
  readonly t: "effect";
  /** The user message whose turn caused it. */
  readonly messageId: string;
  /** The session's deploy counter: only grows. */
  readonly deploy: number;
  readonly at: string;
}

/** A turn ended: the Agent's whole reply. */
export interface AgentRecord {
  readonly t: "agent";
  readonly messageId: string;
  /** The user message this replies to. */
  readonly replyTo: string;
  readonly text: string;
  readonly stopReason: string;
  readonly at: string;
}

/** Every record a session file holds. */
export type SessionRecord = SessionHeaderRecord | UserRecord | EffectRecord | AgentRecord;
