import type { Frame } from "../protocol/frame.js";
import type { Direction } from "../trace/record.js";
import { FAULT_ACTION_TABLE } from "./fault-actions.js";
import { type FaultRule, isImmediate } from "./fault-rule.js";

/** The request a response answers, as the tap remembers it (see `RequestLedger`). */
export interface AnsweredRequest {
  readonly method: string;
  readonly params: unknown;
}

function param(params: unknown, name: string): unknown {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return undefined;
  return (params as Record<string, unknown>)[name];
}

/**
 * Whether `rule` fires on this frame. Requests and notifications match by their own method and
 * params; responses by the request they answer (`answered`; a response whose request is unknown
 * matches only rules without method, session or key criteria). `drop-response` fires only on the
 * agent's answers, `drop-request` only on what the client sends. Immediate rules never match a frame.
 * Pure: it does not consume the rule.
 */
export function matchFrame(
  rule: FaultRule,
  frame: Frame,
  dir: Direction,
  answered?: AnsweredRequest,
): boolean {
  if (frame.kind === "malformed" || rule.count < 1 || isImmediate(rule)) return false;
  const trigger = frame.kind === "request" || frame.kind === "notification" ? "request" : "response";
  // An action with one trigger (the table's) fires only on that frame, coming from its side.
  const spec = FAULT_ACTION_TABLE[rule.action];
  const fixed = spec.triggers.length === 1 ? spec.triggers[0] : undefined;
  if (
    fixed !== undefined &&
    (trigger !== fixed || dir !== (fixed === "response" ? "agent->client" : "client->agent"))
  )
    return false;
  // The retry actions resend the request a response answers: only answers to known client requests.
  if (spec.acts === "retry" && !answered) return false;
  const m = rule.match;
  if (m.on !== undefined && m.on !== trigger) return false;
  const subject: AnsweredRequest | undefined =
    frame.kind === "request" || frame.kind === "notification"
      ? { method: frame.method, params: frame.params }
      : answered;
  if (m.method === undefined && m.sessionId === undefined && m.idempotencyKey === undefined) return true;
  if (!subject) return false;
  if (m.method !== undefined && subject.method !== m.method) return false;
  if (m.sessionId !== undefined && param(subject.params, "sessionId") !== m.sessionId) return false;
  if (m.idempotencyKey !== undefined && param(subject.params, "idempotencyKey") !== m.idempotencyKey)
    return false;
  return true;
}
