import type { ConformanceBoard } from "../conformance/conformance-run.js";
import type { DemoStatus } from "../demo/demo-wire.js";
import { OPERATION_NAMES, OPERATIONS, type OperationName } from "../ops/operations.js";
import type { FaultRulesMessage } from "./fault-rules-message.js";
import type { HubEvent } from "./hub-event.js";
import type { HubError } from "./tap-wire.js";

/** UI -> hub: send me every event with seq > `after`, then live events (0 = from the start of the ring). */
export interface UiSubscribe {
  readonly t: "subscribe";
  readonly after: number;
}

/**
 * UI -> hub: one operation of `shared/ops/operations.ts`. `t` is the operation's `ws` type
 * (`fault-arm`, `trace-list`, ...); the other fields, but `ref`, are its arguments, validated by the
 * hub as on every surface. Answered with a `reply` carrying the same `ref`.
 */
export interface UiOperation {
  readonly t: string;
  readonly ref?: string;
  readonly [arg: string]: unknown;
}

/** Every message a UI sends. There is deliberately no message that spawns or names a command. */
export type UiToHub = UiSubscribe | UiOperation;

/** A UI message as the hub understood it: a subscription, or a call of a named operation with raw arguments. */
export type DecodedUiMessage =
  | UiSubscribe
  | {
      readonly t: "call";
      readonly op: OperationName;
      readonly args: Record<string, unknown>;
      readonly ref?: string;
    };

/** Hub -> UI, first message: where the ring stands. */
export interface HubUiHello {
  readonly t: "hello";
  readonly v: number;
  readonly hubId: string;
  readonly latestSeq: number;
  readonly oldestSeq: number;
}

/** Hub -> UI: one batch of events in seq order (one message per flush, never one per event). */
export interface HubEvents {
  readonly t: "events";
  readonly events: readonly HubEvent[];
}

/**
 * Hub -> UI: events after `after` up to `oldestSeq - 1` fell out of the ring before this
 * subscriber got them; the next `events` batch starts at `oldestSeq`. The on-disk traces hold
 * everything: `traceIds` are the traces this hub run has written (`GET /api/traces/<id>` exports
 * one, `GET /api/traces` lists all, imported ones included).
 */
export interface HubGap {
  readonly t: "gap";
  readonly after: number;
  readonly oldestSeq: number;
  readonly traceIds: readonly string[];
}

/** Hub -> UI: the answer to the operation sent with `ref`: its result as `value`, or the hub's refusal. */
export type HubReply =
  | { readonly t: "reply"; readonly ref?: string; readonly ok: true; readonly value: unknown }
  | { readonly t: "reply"; readonly ref?: string; readonly ok: false; readonly error: string };

/**
 * Hub -> UI: the built-in demo's status (`status.v` is the demo wire version), on connect when a
 * demo runs and on every change. Hubs without a demo never send it.
 */
export interface HubDemoStatus {
  readonly t: "demo-status";
  readonly status: DemoStatus;
}

/**
 * Hub -> UI: the conformance board (agent choices and the current or last run), on connect and on
 * every change. Hubs without a conformance runner never send it.
 */
export interface HubConformanceStatus {
  readonly t: "conformance-status";
  readonly board: ConformanceBoard;
}

/** Every message the hub sends to a UI. */
export type HubToUi =
  | HubUiHello
  | HubEvents
  | HubGap
  | HubReply
  | FaultRulesMessage
  | HubError
  | HubDemoStatus
  | HubConformanceStatus;

/** The operation each UI WebSocket message type carries. */
const OPERATION_OF_WS: ReadonlyMap<string, OperationName> = new Map(
  OPERATION_NAMES.map((op) => [OPERATIONS[op].ws, op]),
);

/** Decodes an untrusted UI message; a string error when it is not one. Arguments are checked later, by the operation's validator. */
export function decodeUiMessage(text: string): DecodedUiMessage | string {
  let m: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
    m = v as Record<string, unknown>;
  } catch {
    return "not JSON";
  }
  if (m.ref !== undefined && typeof m.ref !== "string") return "ref must be a string";
  if (m.t === "subscribe") {
    return typeof m.after === "number" && Number.isInteger(m.after) && m.after >= 0
      ? { t: "subscribe", after: m.after }
      : "subscribe needs after, a non-negative integer";
  }
  const op = typeof m.t === "string" ? OPERATION_OF_WS.get(m.t) : undefined;
  if (op === undefined) return `unknown UI message type ${JSON.stringify(m.t)}`;
  const { t: _t, ref, ...args } = m;
  return { t: "call", op, args, ...(typeof ref === "string" && { ref }) };
}

/** The UI WebSocket message for a call of `op` with `args`. */
export function uiOperationMessage(
  op: OperationName,
  args: Readonly<Record<string, unknown>>,
  ref?: string,
): UiOperation {
  return { ...args, t: OPERATIONS[op].ws, ...(ref !== undefined && { ref }) };
}
