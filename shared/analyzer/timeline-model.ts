/**
 * The analyzer's output: plain, JSON-ready data (no classes) a UI renders live and the CLI prints.
 * Every row has a numeric `id` (unique across all row kinds) and a `rev`: the analyzer revision in
 * which the row last changed, so a UI can re-render only rows with `rev` above the one it last saw.
 */
import type { JsonRpcId } from "../protocol/frame.js";
import type { RetryClassOrUnclassified } from "../protocol/retry-class.js";
import type { Direction, FrameFlag, TraceHeader } from "../trace/record.js";
import type { InvalidRecord } from "../trace/record-check.js";
import type { VerdictName, VerdictSeverity } from "./verdicts.js";

/** How one request ended, as far as the trace shows. */
export type Outcome =
  /** No answer yet. */
  | { readonly kind: "pending" }
  /** A `session/prompt` result: the user message was inserted (`messageId` null on v1, which answers `{stopReason}`). */
  | { readonly kind: "inserted"; readonly messageId: string | null; readonly stopReason?: string }
  /** A result of any other request. */
  | { readonly kind: "answered" }
  /** An error response other than -32800. */
  | { readonly kind: "error"; readonly code: number; readonly message: string }
  /** A -32800 (request cancelled) error response. */
  | { readonly kind: "cancelled"; readonly message: string }
  /**
   * The connection closed or the Agent exited before an answer, or a delay held the request and
   * never delivered it (`cause` says which; absent in models built before it was recorded).
   */
  | {
      readonly kind: "lost";
      readonly reason: string;
      readonly seq: number;
      readonly cause?: "conn-close" | "agent-exit" | "held";
    }
  /**
   * The inspector's fault injection swallowed the request (the Agent never saw it) or the response
   * (the Agent answered `answer`, the Client never saw it).
   */
  | {
      readonly kind: "dropped";
      readonly frame: "request" | "response";
      readonly seq: number;
      readonly answer?: Outcome;
      /** A `delay` held the response and it was never delivered (the connection closed or the tap ended first). */
      readonly held?: true;
    };

/** The kinds of `Outcome`. */
export type OutcomeKind = Outcome["kind"];

/** One verdict on one row. */
export interface VerdictHit {
  readonly name: VerdictName;
  readonly severity: VerdictSeverity;
  /** What happened in this row, in one sentence (the definition in `VERDICTS` says why it matters). */
  readonly detail: string;
  /** The seqs of the frames that show it. */
  readonly seqs: readonly number[];
}

/**
 * What happened to one prompt attempt, as far as the trace shows:
 * - `pending`: no answer yet (v2: held, not inserted yet; v1: the turn has not ended);
 * - `inserted`: this attempt inserted the user message (its answer named a new messageId, or v1 answered);
 * - `original`: answered with the messageId an earlier attempt produced: no new insert;
 * - `error`: an error response (v2: not inserted);
 * - `cancelled`: a -32800 response: withdrawn before insertion;
 * - `unknown`: the connection or the Agent went away before the answer: whether it inserted is unknown;
 * - `not-delivered`: the inspector dropped the request: the Agent never saw it.
 */
export type AttemptEffect =
  | "pending"
  | "inserted"
  | "original"
  | "error"
  | "cancelled"
  | "unknown"
  | "not-delivered";

/**
 * What an attempt did to the Agent's conversation, from the frames alone (attempt-outcome.ts):
 * - `pending`: no answer yet (also while a delay holds the request or its answer);
 * - `inserted`: this attempt inserted the user message (`messageId` null: a v1 answer);
 * - `deduplicated`: answered with a messageId an earlier attempt or user message showed;
 * - `not-inserted`: an error answer (v2) or a -32800 (`code` -32800);
 * - `not-delivered`: the inspector dropped the request (or held it and never delivered it);
 * - `unknown`: the answer was lost with its connection or Agent, or a v1 error (indeterminate).
 */
export type AgentEffect =
  | { readonly kind: "pending" }
  | { readonly kind: "inserted"; readonly messageId: string | null }
  | { readonly kind: "deduplicated"; readonly messageId: string }
  | { readonly kind: "not-inserted"; readonly code: number }
  | { readonly kind: "not-delivered" }
  | { readonly kind: "unknown"; readonly cause: "conn-close" | "agent-exit" | "v1-error" };

/** Why the Client never saw an answer to an attempt. */
export type NeverSeenReason = "answer-dropped" | "answer-held" | "request-dropped" | "lost" | "not-forwarded";

/**
 * What the Client saw of an attempt (attempt-outcome.ts):
 * - `answer`: this attempt's own result reached the Client;
 * - `error`: its own error response reached the Client (-32800 included);
 * - `forwarded`: the inspector forwarded an answer under the Client's id `clientId`: that of its
 *   retry `retryId` (on a Client attempt whose own answer was dropped, and on the retry itself);
 * - `nothing-yet`: nothing so far, and an answer may still come;
 * - `nothing-ever`: no answer will reach the Client for it (`why`).
 */
export type ClientSaw =
  | { readonly kind: "answer"; readonly messageId: string | null }
  | { readonly kind: "error"; readonly code: number }
  | {
      readonly kind: "forwarded";
      readonly clientId: string | number;
      readonly retryId: string | number;
      readonly messageId: string | null;
      readonly code: number | null;
    }
  | { readonly kind: "nothing-yet" }
  | { readonly kind: "nothing-ever"; readonly why: NeverSeenReason };

/** Who sent an attempt: the Client, or the inspector (a `retry` of a Client attempt, or a `replay`). */
export type AttemptSender =
  | { readonly kind: "client" }
  | {
      readonly kind: "inspector";
      readonly role: "retry" | "replay";
      /** The Client's JSON-RPC id the retry copies, when the trace names it. */
      readonly replaces: string | number | null;
    };

/**
 * The colour of an attempt, about the Agent and the RFD (never about transport):
 * `ok` inserted once, deduplicated, withdrawn (-32800) or an invalid key rejected (-32602);
 * `violation` an insert that breaks dedup (a key's second messageId, v2) or an invalid key accepted;
 * `warn` an error answer (not inserted) or a second insert with no key to dedupe by;
 * `unknown` the Agent's effect is unknown or it never got the request (transport);
 * `pending` no answer yet.
 */
export type AttemptTone = "ok" | "violation" | "warn" | "unknown" | "pending";

/** One `session/prompt` request of a submission. */
export interface Attempt {
  readonly conn: number;
  /** The JSON-RPC id on that connection. */
  readonly id: string | number;
  readonly requestSeq: number;
  /** The response's seq, once there is one (also when the response was dropped). */
  responseSeq: number | null;
  /** `ts` of the request frame. */
  readonly sentAt: number;
  /** Milliseconds from request to response, once answered. */
  latencyMs: number | null;
  outcome: Outcome;
  /** The seq of a `$/cancel_request` that named this attempt, if any. */
  cancelSeq: number | null;
  /** Seqs of this attempt's own frames: request, response, cancel. */
  frameSeqs: number[];
  /** What happened to it (see `AttemptEffect`); the Agent's side, also when the Client never saw the answer. */
  effect: AttemptEffect;
  /** What happened to it and what the Client saw, in the words every view shows. */
  words: string;
  /**
   * Set when the Client did not send this request itself, never judged as the Client's: `"tap"`
   * (the tap wrote it), `"inspector"` (a retry the inspector made: a copy of a Client attempt the
   * tap sent with its own id, trace `origin: "inspector"`).
   */
  readonly origin?: string;
  /** For an inspector attempt: true once its answer reached the Client, rewritten to the Client's id. */
  forwarded?: boolean;
  /** What it did to the Agent's conversation (see `AgentEffect`). */
  agentEffect: AgentEffect;
  /** What the Client saw of it (see `ClientSaw`). */
  clientSaw: ClientSaw;
  /** Who sent it (see `AttemptSender`). */
  sender: AttemptSender;
  /** Its colour: about the Agent and the RFD (see `AttemptTone`). */
  tone: AttemptTone;
}

/** How a submission's key was read: absent (null/omitted), valid, or invalid (must be answered -32602). */
export type KeyStatus = "absent" | "valid" | "invalid";

/** The attempts sharing one (sessionId, idempotencyKey); each unkeyed or invalid-key prompt is its own submission. */
export interface Submission {
  readonly id: number;
  rev: number;
  readonly sessionId: string | null;
  /** The key, when valid; null when absent or invalid. */
  readonly key: string | null;
  readonly keyStatus: KeyStatus;
  /** For an invalid key: why it is invalid and a short rendering of the value. */
  readonly invalidKey: { readonly reason: string; readonly shown: string } | null;
  /** The first attempt's prompt text, shortened. */
  readonly promptPreview: string;
  attempts: Attempt[];
  /** Distinct messageIds the Agent produced for this submission (responses, incl. dropped ones, and attributed user_message updates). */
  messageIds: string[];
  /** User messages inserted for this submission: distinct messageIds plus v1 answers without one. */
  inserts: number;
  /** The messageId the submission settled on (the first one answered, dropped answers included), or null. */
  finalMessageId: string | null;
  /**
   * The first messageId in an answer the Client saw (its own attempt's, or one the inspector
   * forwarded under its id), or null (a dropped answer's messageId is not here).
   */
  clientMessageId: string | null;
  /** True when the Client has a definite answer (a result or an error, its own or forwarded by the inspector). */
  clientAnswered: boolean;
  /** The submission's result as the Client stands, in the words every view shows. */
  result: string;
  /**
   * For a resend (the same prompt in the same session, without a key or under a new key, after an
   * earlier submission's answer was lost or was an error): the row id of the submission it repeats.
   */
  resendOf: number | null;
  /** The row id of the later submission that resends this one (see `resendOf`), or null. */
  resentAs: number | null;
  /** The protocol version agreed on the connection of the first attempt, when known. */
  protocolVersion: number | null;
  verdicts: VerdictHit[];
}

/** A request other than a Client's `session/prompt`, or a response that answered no known request. */
export interface RequestRow {
  readonly id: number;
  rev: number;
  readonly conn: number;
  /** Direction of the request (for an unmatched response: the direction the response travelled). */
  readonly dir: Direction;
  readonly jsonRpcId: JsonRpcId;
  /** Null for an unmatched response. */
  readonly method: string | null;
  /** The request's `params.sessionId`, when it is a string (UIs filter on it). */
  readonly sessionId?: string | null;
  readonly retryClass: RetryClassOrUnclassified;
  readonly requestSeq: number | null;
  responseSeq: number | null;
  readonly sentAt: number;
  latencyMs: number | null;
  outcome: Outcome;
  /** True for a response with no matching request on its connection. */
  readonly unmatched: boolean;
  /** For `session/new` and `session/fork` results: the sessionId they created. */
  createdSessionId: string | null;
  verdicts: VerdictHit[];
  /** Set when the Client did not send this request (`"tap"`: the tap's own, e.g. a replayed `initialize`). */
  readonly origin?: string;
}

/** A frame that is not a readable JSON-RPC 2.0 message, kept verbatim. */
export interface MalformedRow {
  readonly id: number;
  readonly rev: number;
  readonly seq: number;
  readonly conn: number;
  readonly dir: Direction;
  readonly reason: string;
  readonly flags: readonly FrameFlag[];
  readonly encoding: "utf8" | "base64";
  /** The first characters of `raw`. */
  readonly preview: string;
  readonly dropped: boolean;
}

/** One client connection. */
export interface ConnectionRow {
  readonly id: number;
  rev: number;
  readonly conn: number;
  transport: string | null;
  peer: string | null;
  openedSeq: number | null;
  openedAt: number | null;
  closedSeq: number | null;
  closeReason: string | null;
  /** The protocol version agreed by `initialize` (the Agent's answer), or requested when unanswered. */
  protocolVersion: number | null;
  frames: number;
}

/** One Agent process the tap spawned. */
export interface AgentRow {
  readonly id: number;
  rev: number;
  readonly pid: number;
  readonly command: readonly string[];
  readonly spawnSeq: number | null;
  readonly spawnedAt: number | null;
  exitSeq: number | null;
  exitCode: number | null;
  exitSignal: string | null;
  stderrLines: number;
}

/** Notifications of one method: counted, not listed (there can be millions). */
export interface NotificationCount {
  readonly method: string;
  readonly retryClass: RetryClassOrUnclassified;
  count: number;
  lastSeq: number;
}

/** A trace line the reader could not decode (reported by the caller through `ingestProblem`). */
export interface TraceProblem {
  readonly line: number;
  readonly message: string;
  readonly truncated: boolean;
}

/** An invalid record (shared/trace/record-check.ts) the analyzer was given, with its trace line when read from a file. */
export interface InvalidEntry {
  readonly line: number | null;
  readonly record: InvalidRecord;
}

/**
 * Records whose seq repeats or goes back (seqs only grow within a trace): counted and left out of
 * the analysis, so a record seen twice never makes a second attempt.
 */
export interface SeqIssues {
  /** Records with the same seq as the highest so far (the record before it, read again). */
  repeated: number;
  /** Records with a seq below the highest so far (a repeat of an older record, or out of order). */
  decreasing: number;
  /** The first `MAX_SEQ_ISSUES_LISTED` of them: their seq and the highest seq before them. */
  readonly listed: { readonly seq: number; readonly after: number }[];
}

/** The whole timeline. Arrays are in order of first appearance. */
export interface TimelineModel {
  readonly header: TraceHeader | null;
  readonly revision: number;
  readonly records: number;
  readonly frames: number;
  readonly lastSeq: number;
  readonly submissions: readonly Submission[];
  readonly requests: readonly RequestRow[];
  readonly malformed: readonly MalformedRow[];
  readonly connections: readonly ConnectionRow[];
  readonly agents: readonly AgentRow[];
  readonly notifications: readonly NotificationCount[];
  readonly problems: readonly TraceProblem[];
  /** How many rows carry each verdict (every verdict name is present, zero included). */
  readonly verdictCounts: Readonly<Record<VerdictName, number>>;
  /** Invalid records, kept flagged; present only when there is one. */
  readonly invalid?: readonly InvalidEntry[];
  /** Records left out for a repeated or decreasing seq; present only when there is one. */
  readonly seqIssues?: SeqIssues;
}

/** The rows that changed since the previous `takeChanges()`, as copies safe to keep. */
export interface TimelineChanges {
  /** The analyzer revision these changes bring the caller up to. */
  readonly revision: number;
  readonly submissions: readonly Submission[];
  readonly requests: readonly RequestRow[];
  readonly malformed: readonly MalformedRow[];
  readonly connections: readonly ConnectionRow[];
  readonly agents: readonly AgentRow[];
  readonly verdictCounts: Readonly<Record<VerdictName, number>>;
}

/**
 * What a lifecycle or fault event row stands for: a connection opened or closed, an Agent process
 * started, restarted or ended, a fault applied (or a held frame released or never delivered), a
 * retry the inspector made, a note of the tap.
 */
export type LifecycleEventKind =
  | "conn-open"
  | "conn-close"
  | "agent-spawn"
  | "agent-restart"
  | "agent-exit"
  | "fault-applied"
  | "fault-released"
  | "fault-undelivered"
  | "inspector-retry"
  | "note";

/** One lifecycle or fault record of a trace, as a Timeline event row reads it (timeline-events.ts). */
export interface LifecycleEvent {
  /** The record's seq (unique in a trace: a row key). */
  readonly seq: number;
  readonly ts: number;
  readonly kind: LifecycleEventKind;
  /** The connection it concerns, when the record names one. */
  readonly conn: number | null;
  /** The Agent process it concerns, when it is an Agent event. */
  readonly pid: number | null;
  /** What happened, in the words every view shows: "agent 4242 killed by SIGKILL". */
  readonly words: string;
  readonly tone: "ok" | "info" | "warn" | "error";
}
