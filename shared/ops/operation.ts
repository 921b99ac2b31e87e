/**
 * The operations the UI can ask of the hub behind it, one per toolbar action. The Electron preload
 * carries exactly these over IPC (the browser shell reaches the same hub over its WebSocket and
 * HTTP API), and the main process validates every call with `parseOperationCall` because anything
 * crossing a process boundary is untrusted input. Fault specs get their full check in the hub.
 */
import { type ConformanceStart, parseConformanceStart } from "../conformance/conformance-run.js";
import { type DemoCommand, parseDemoCommand } from "../demo/demo-wire.js";
import type { FaultRule, FaultRuleSpec } from "../faults/fault-rule.js";
import type { TraceSummary } from "../hub/hub-event.js";

/** The hub's status as `GET /api/hub` reports it (the fields the UI reads). */
export interface HubStatus {
  readonly hubId: string;
  readonly pid: number;
  readonly port: number;
  readonly startedAt: string;
  readonly latestSeq: number;
  readonly oldestSeq: number;
  readonly taps: number;
  readonly recordsIn: number;
}

/** Arguments of each operation, by name. */
export interface OperationArgs {
  armFault: { readonly spec: FaultRuleSpec };
  disarmFault: { readonly id: string };
  clearFaults: Record<string, never>;
  listTraces: Record<string, never>;
  readTrace: { readonly id: string };
  hubStatus: Record<string, never>;
  /** A command for the built-in demo (refused when the hub runs none). */
  demo: { readonly command: DemoCommand };
  /** Run the conformance suite against one of the hub's agent choices (refused while one runs). */
  conformanceStart: { readonly request: ConformanceStart };
  /** Cancel the running conformance run. */
  conformanceCancel: Record<string, never>;
}

/** What each operation resolves to, by name. */
export interface OperationResults {
  armFault: {
    readonly rule: FaultRule;
    readonly immediate: boolean;
    /** Taps attached when it was armed (reported by the HTTP API). */
    readonly taps?: number;
  };
  disarmFault: { readonly disarmed: string };
  clearFaults: { readonly cleared: number };
  listTraces: { readonly traces: readonly TraceSummary[] };
  /** The trace file (JSONL) exactly as the hub stored it. */
  readTrace: { readonly text: string };
  hubStatus: HubStatus;
  demo: { readonly ok: true };
  conformanceStart: { readonly ok: true };
  conformanceCancel: { readonly ok: true };
}

/** The name of an operation. */
export type OperationName = keyof OperationArgs;

/** Every operation name. */
export const OPERATION_NAMES: readonly OperationName[] = [
  "armFault",
  "disarmFault",
  "clearFaults",
  "listTraces",
  "readTrace",
  "hubStatus",
  "demo",
  "conformanceStart",
  "conformanceCancel",
];

/** A validated call: the name and its arguments, typed together. */
export type OperationCall = {
  [K in OperationName]: { readonly op: K; readonly args: OperationArgs[K] };
}[OperationName];

/** Trace ids as the hub names them (checked again by the hub before any file access). */
const TRACE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Validates an untrusted `(op, args)` pair; returns the typed call or a message saying what is wrong. */
export function parseOperationCall(op: unknown, args: unknown): OperationCall | { readonly error: string } {
  if (typeof op !== "string" || !(OPERATION_NAMES as readonly string[]).includes(op)) {
    return { error: `unknown operation ${JSON.stringify(op)}` };
  }
  const a = args === undefined ? {} : args;
  if (!isRecord(a)) return { error: `${op}: arguments must be an object` };
  switch (op as OperationName) {
    case "armFault":
      if (!isRecord(a.spec)) return { error: "armFault: spec must be an object" };
      return { op: "armFault", args: { spec: a.spec as unknown as FaultRuleSpec } };
    case "disarmFault":
      if (typeof a.id !== "string" || a.id.length === 0 || a.id.length > 100) {
        return { error: "disarmFault: id must be a rule id" };
      }
      return { op: "disarmFault", args: { id: a.id } };
    case "readTrace":
      if (typeof a.id !== "string" || !TRACE_ID.test(a.id))
        return { error: "readTrace: id must be a trace id" };
      return { op: "readTrace", args: { id: a.id } };
    case "demo": {
      const command = parseDemoCommand(a.command);
      if ("error" in command) return { error: `demo: ${command.error}` };
      return { op: "demo", args: { command } };
    }
    case "conformanceStart": {
      const request = parseConformanceStart(a.request);
      if ("error" in request) return { error: `conformanceStart: ${request.error}` };
      return { op: "conformanceStart", args: { request } };
    }
    case "clearFaults":
    case "listTraces":
    case "hubStatus":
    case "conformanceCancel":
      return { op: op as "clearFaults" | "listTraces" | "hubStatus" | "conformanceCancel", args: {} };
  }
}
