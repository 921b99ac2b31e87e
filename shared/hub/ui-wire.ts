import type { ConformanceBoard } from "../conformance/conformance-run.js";
import type { DemoStatus } from "../demo/demo-wire.js";
import type { FaultRule } from "../faults/fault-rule.js";
import type { HubEvent } from "./hub-event.js";
import type { HubError, HubFaultRules } from "./tap-wire.js";

/** UI -> hub: send me every event with seq > `after`, then live events (0 = from the start of the ring). */
export interface UiSubscribe {
  readonly t: "subscribe";
  readonly after: number;
}

/** UI -> hub: arm a rule (`spec` is validated like `POST /api/faults`). `ref` comes back in the reply. */
export interface UiFaultArm {
  readonly t: "fault-arm";
  readonly spec: unknown;
  readonly ref?: string;
}

/** UI -> hub: disarm one rule. */
export interface UiFaultDisarm {
  readonly t: "fault-disarm";
  readonly id: string;
  readonly ref?: string;
}

/** UI -> hub: disarm every rule. */
export interface UiFaultClear {
  readonly t: "fault-clear";
  readonly ref?: string;
}

/**
 * UI -> hub: a command for the built-in demo (`DemoCommand` of `shared/demo/demo-wire.ts`,
 * validated by the hub); answered with `reply`. Only fixed operations on the demo agent the hub's
 * own command line started.
 */
export interface UiDemo {
  readonly t: "demo";
  readonly command: unknown;
  readonly ref?: string;
}

/**
 * UI -> hub: run the conformance suite (`request` is a `ConformanceStart` of
 * `shared/conformance/conformance-run.ts`: an agent choice id and optionally case names, validated
 * by the hub); answered with `reply`. The agent is one the hub's own command line or local config
 * named, or the built-in demo agent.
 */
export interface UiConformanceStart {
  readonly t: "conformance-start";
  readonly request: unknown;
  readonly ref?: string;
}

/** UI -> hub: cancel the running conformance run; answered with `reply`. */
export interface UiConformanceCancel {
  readonly t: "conformance-cancel";
  readonly ref?: string;
}

/** Every message a UI sends. There is deliberately no message that spawns or names a command. */
export type UiToHub =
  | UiSubscribe
  | UiFaultArm
  | UiFaultDisarm
  | UiFaultClear
  | UiDemo
  | UiConformanceStart
  | UiConformanceCancel;

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

/** Hub -> UI: the answer to a fault command carrying `ref`. */
export interface HubReply {
  readonly t: "reply";
  readonly ref?: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly rule?: FaultRule;
}

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
  | HubFaultRules
  | HubError
  | HubDemoStatus
  | HubConformanceStatus;

/** Decodes an untrusted UI message; a string error when it is not one. */
export function decodeUiMessage(text: string): UiToHub | string {
  let m: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
    m = v as Record<string, unknown>;
  } catch {
    return "not JSON";
  }
  if (m.ref !== undefined && typeof m.ref !== "string") return "ref must be a string";
  switch (m.t) {
    case "subscribe":
      return typeof m.after === "number" && Number.isInteger(m.after) && m.after >= 0
        ? (m as unknown as UiSubscribe)
        : "subscribe needs after, a non-negative integer";
    case "fault-arm":
      return m as unknown as UiFaultArm;
    case "fault-disarm":
      return typeof m.id === "string" ? (m as unknown as UiFaultDisarm) : "fault-disarm needs an id";
    case "fault-clear":
      return m as unknown as UiFaultClear;
    case "demo":
      return m as unknown as UiDemo;
    case "conformance-start":
      return m as unknown as UiConformanceStart;
    case "conformance-cancel":
      return m as unknown as UiConformanceCancel;
    default:
      return `unknown UI message type ${JSON.stringify(m.t)}`;
  }
}
