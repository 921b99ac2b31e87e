import { parseJsonObject } from "../protocol/json-object.js";
import type { TraceHeader, TraceRecord } from "../trace/record.js";
import { type FaultRulesMessage, faultRulesMessage } from "./fault-rules-message.js";

/**
 * Tap -> hub, first message on a tap connection. `tapId` is random per tap process and stays the
 * same across reconnects, so a hub that sees it again appends to the same trace.
 */
export interface TapHello {
  readonly t: "hello";
  readonly v: number;
  readonly tapId: string;
  readonly header: TraceHeader;
  readonly pid?: number;
}

/**
 * Tap -> hub: a batch of records, in tap seq order. `dropped`: records the link discarded from its
 * bounded backlog since the previous batch (the tap's own trace file still has them).
 */
export interface TapRecords {
  readonly t: "records";
  /** `TraceRecord`s as the tap sends them; unchecked until the hub checks each one (record-check.ts). */
  readonly records: readonly TraceRecord[] | readonly unknown[];
  readonly dropped?: number;
}

/**
 * Tap -> hub, after every `fault-rules`: the ids of the rules of that list the tap now holds (an
 * immediate one: carried out), and those it refused as invalid. The hub shows a rule as armed only
 * once every tap it was sent to acknowledged it.
 */
export interface TapFaultAck {
  readonly t: "fault-ack";
  readonly ids: readonly string[];
  readonly refused?: readonly string[];
}

/** Every message a tap sends. */
export type TapToHub = TapHello | TapRecords | TapFaultAck;

/** Hub -> tap, answer to `hello`: the trace the records go to and the last tap seq the hub already has. */
export interface HubWelcome {
  readonly t: "welcome";
  readonly v: number;
  readonly hubId: string;
  readonly traceId: string;
  readonly lastSeq: number;
}

/** Hub -> tap: every record with seq <= `upTo` is stored; the link may forget it. */
export interface HubAck {
  readonly t: "ack";
  readonly upTo: number;
}

/** Hub -> tap or UI: a protocol error; the hub closes the connection after it. */
export interface HubError {
  readonly t: "error";
  readonly message: string;
}

/** Every message the hub sends to a tap. */
export type HubToTap = HubWelcome | HubAck | FaultRulesMessage | HubError;

/**
 * Decodes an untrusted tap message; a string error when it is not one. The records are not checked
 * here: the hub checks each one as it stores it (shared/trace/record-check.ts), so an invalid record
 * is kept flagged instead of closing the tap's connection.
 */
export function decodeTapMessage(text: string): TapToHub | string {
  const m = parseJsonObject(text);
  if (!m) return "not a JSON object";
  if (m.t === "hello") {
    const h = m.header as Record<string, unknown> | null;
    if (typeof m.v !== "number" || typeof m.tapId !== "string" || !/^[A-Za-z0-9-]{8,64}$/.test(m.tapId))
      return "hello needs v and a tapId of 8 to 64 letters, digits or dashes";
    if (!h || typeof h !== "object" || typeof h.format !== "string") return "hello needs a trace header";
    return m as unknown as TapHello;
  }
  if (m.t === "records") {
    if (!Array.isArray(m.records)) return "records must be an array";
    if (m.dropped !== undefined && (typeof m.dropped !== "number" || m.dropped < 0))
      return "dropped must be a non-negative number";
    return m as unknown as TapRecords;
  }
  if (m.t === "fault-ack") {
    const ids = (v: unknown) =>
      Array.isArray(v) && v.length <= 10_000 && v.every((x) => typeof x === "string");
    if (!ids(m.ids) || (m.refused !== undefined && !ids(m.refused)))
      return "fault-ack needs ids (and refused) as arrays of rule ids";
    return m as unknown as TapFaultAck;
  }
  return `unknown tap message type ${JSON.stringify(m.t)}`;
}

/** Decodes a hub message on the tap side; undefined when it is not one. */
export function decodeHubToTap(text: string): HubToTap | undefined {
  const m = parseJsonObject(text);
  if (!m) return undefined;
  switch (m.t) {
    case "welcome":
      return typeof m.traceId === "string" && typeof m.lastSeq === "number"
        ? (m as unknown as HubWelcome)
        : undefined;
    case "ack":
      return typeof m.upTo === "number" ? (m as unknown as HubAck) : undefined;
    case "fault-rules":
      return faultRulesMessage(m);
    case "error":
      return typeof m.message === "string" ? (m as unknown as HubError) : undefined;
    default:
      return undefined;
  }
}
