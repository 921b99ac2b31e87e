/**
 * What `replay --as agent` answers with, from a recorded trace: every request the recorded agent
 * was asked (by the client, or by the tap and the inspector on its behalf), with the agent frames
 * that followed it, its answer, and whether that answer reached the client or was lost (dropped by
 * a fault, never given because the agent was killed, or never delivered). Pure: records in, script out.
 */
import { classifyFrame } from "../protocol/frame.js";
import type { TraceRecord } from "../trace/record.js";
import { type ConnId, connId } from "./replay-plan.js";

/** Why the recorded client never got an answer (`null`: it got it). */
export type LostAnswer =
  | null
  /** The answer frame was swallowed by a fault (`dropped`), or a delay never delivered it. */
  | { readonly kind: "dropped"; readonly by: string }
  /** The request itself was swallowed by a fault: the agent never saw it. */
  | { readonly kind: "request-dropped"; readonly by: string }
  /** The trace has no answer: the agent ended or the connection closed first, or the recording stopped. */
  | { readonly kind: "no-answer" };

/** How the recorded agent process ended while (or right after) handling a request. */
export interface RecordedExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The fault that ended it (`restart-and-retry`, `kill-agent`, ...), when one did. */
  readonly by?: string;
}

/** One request the recorded agent was asked, and what it did with it. */
export interface RecordedExchange {
  /** Position in the script (0, 1, ...). */
  readonly index: number;
  /** The request record's seq. */
  readonly seq: number;
  readonly method: string;
  /** `params.idempotencyKey` when it was a string. */
  readonly key?: string;
  /** Who sent it: the client (absent), the tap (a restart's initialize/resume) or the inspector (a retry). */
  readonly origin?: "tap" | "inspector";
  /** Agent frames (notifications, agent requests) recorded after it and before its answer, as recorded. */
  readonly before: string[];
  /** The recorded answer's body: `result` or `error` (sent under the live request's id). */
  answer?: { readonly result: unknown } | { readonly error: unknown };
  lost: LostAnswer;
  /** Agent frames recorded after its answer and before the next request. */
  readonly after: string[];
  /** Set when the recorded agent process ended before the next request. */
  exit?: RecordedExit;
}

/** The recorded agent side, in order. */
export interface AgentScript {
  readonly exchanges: readonly RecordedExchange[];
  /** Agent frames the trace holds that could not be used (not UTF-8 text, cut), by seq. */
  readonly unusable: readonly number[];
}

/** Faults that end the agent process (their `fault` record comes before the `agent-exit`). */
const ENDING = new Set(["kill-agent", "restart-agent", "restart-and-retry"]);

/** Builds the script of a trace's records (in seq order). */
export function buildAgentScript(records: readonly TraceRecord[]): AgentScript {
  const exchanges: RecordedExchange[] = [];
  const unusable: number[] = [];
  /** Requests not yet answered, by ConnId (inspector and tap ids included). */
  const pending = new Map<ConnId, RecordedExchange>();
  /** Frames by seq (for fault records), and which exchange's answer or request a frame was. */
  const answerOf = new Map<number, RecordedExchange>();
  const requestOf = new Map<number, RecordedExchange>();
  let current: RecordedExchange | undefined;
  /** A fault that swallowed the frame just before and ends the agent: its action. */
  let ending: string | undefined;
  /** Client connections open now (an agent-exit with none open is the normal end, not replayed). */
  const open = new Set<number>();
  for (const r of records) {
    if (r.type === "conn-open") open.add(r.conn);
    else if (r.type === "conn-close") open.delete(r.conn);
    else if (r.type === "fault") {
      const target =
        r.frameSeq === undefined ? undefined : (answerOf.get(r.frameSeq) ?? requestOf.get(r.frameSeq));
      if (r.fate === "undelivered" && target && answerOf.has(r.frameSeq as number))
        target.lost = { kind: "dropped", by: `${r.action} (never delivered)` };
      else if (r.fate === undefined && target) {
        if (target.lost?.kind === "dropped" && target.lost.by === "a fault")
          target.lost = { kind: "dropped", by: r.action };
        if (target.lost?.kind === "request-dropped" && target.lost.by === "a fault")
          target.lost = { kind: "request-dropped", by: r.action };
        if (ENDING.has(r.action)) ending = r.action;
      }
      if (r.action === "disconnect-client" && r.fate === undefined && current && current.exit === undefined)
        current.exit = { code: 1, signal: null, by: "disconnect-client" };
    } else if (r.type === "agent-exit") {
      // Only an end while the client was connected is part of what the client saw.
      if (current && current.exit === undefined && (open.size > 0 || ending !== undefined))
        current.exit = { code: r.code, signal: r.signal, ...(ending !== undefined && { by: ending }) };
      ending = undefined;
    }
    if (r.type !== "frame") continue;
    if (r.encoding === "base64" || r.flags?.includes("oversize")) {
      if (r.dir === "agent->client") unusable.push(r.seq);
      continue;
    }
    const f = classifyFrame(r.raw);
    if (r.dir === "client->agent") {
      if (f.kind !== "request") continue;
      const key = (f.params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
      const x: RecordedExchange = {
        index: exchanges.length,
        seq: r.seq,
        method: f.method,
        ...(typeof key === "string" && { key }),
        ...(r.origin !== undefined && { origin: r.origin }),
        before: [],
        lost: r.dropped === true ? { kind: "request-dropped", by: "a fault" } : { kind: "no-answer" },
        after: [],
      };
      exchanges.push(x);
      requestOf.set(r.seq, x);
      if (r.dropped !== true) pending.set(connId(r.conn, f.id), x);
      current = x;
      continue;
    }
    // agent->client: the agent's own frames; a copy the tap forwarded under the client's id is not one.
    if (r.replaces !== undefined) continue;
    if (f.kind === "result" || f.kind === "error") {
      const x = pending.get(connId(r.conn, f.id));
      if (!x) continue;
      pending.delete(connId(r.conn, f.id));
      x.answer = f.kind === "result" ? { result: f.result } : { error: f.error };
      x.lost = r.dropped === true ? { kind: "dropped", by: "a fault" } : null;
      answerOf.set(r.seq, x);
      continue;
    }
    if (r.dropped === true || f.kind === "malformed" || !current) {
      if (f.kind === "malformed") unusable.push(r.seq);
      continue;
    }
    (current.answer === undefined && current.lost?.kind === "no-answer"
      ? current.before
      : current.after
    ).push(r.raw);
  }
  return { exchanges, unusable };
}
