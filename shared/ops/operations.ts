/**
 * The one table of operations a UI (or the CLI) can ask of the hub: name, argument validator,
 * result type, HTTP route and UI WebSocket message type. Every surface is derived from it: the
 * hub's HTTP routes and UI WebSocket (`electron/hub/operation-routes.ts`, `ui-endpoint.ts`), the
 * Electron preload (one `contextBridge` function per entry), both renderer bridges and the HTTP
 * client of the CLI and the Electron main process (`call-over-http.ts`). The handlers live in
 * `electron/hub/operation-handlers.ts`. Adding an operation means one entry here, its handler and
 * its test; `electron/hub/operation-surfaces.test.ts` fails if a surface lacks one.
 *
 * Arguments are untrusted wherever they cross a process boundary, so every surface runs `parse`.
 * No operation names or starts a command: agents come from the hub's argv or local config only.
 */
import {
  type ConformanceBoard,
  type ConformanceStart,
  parseConformanceStart,
} from "../conformance/conformance-run.js";
import { parseStressStart, type StressStart } from "../conformance/stress/stress-board.js";
import { type DemoCommand, type DemoStatus, parseDemoCommand } from "../demo/demo-wire.js";
import type { ArmedFault } from "../faults/armed-fault.js";
import type { FaultRule, FaultRuleSpec } from "../faults/fault-rule.js";
import type { TraceSummary } from "../hub/hub-event.js";
import type { TapSummary } from "../hub/tap-summary.js";
import { isJsonObject } from "../protocol/json-object.js";
import type { FrameSchemaReport, SchemaCheckSummary } from "../schema/schema-report.js";
import type { FrameRecord } from "../trace/record.js";
import { type HttpRoute, route } from "./http-route.js";

/** The hub's status as `hubStatus` reports it (the fields the UI reads). */
export interface HubStatus {
  readonly hubId: string;
  readonly pid: number;
  readonly port: number;
  readonly startedAt: string;
  readonly latestSeq: number;
  readonly oldestSeq: number;
  readonly taps: number;
  readonly recordsIn: number;
  /** UI WebSockets open, and the most the hub takes (a window refused over it says so). */
  readonly uiSockets?: number;
  readonly maxUiSockets?: number;
}

/** A validator's refusal: what is wrong with the arguments. */
export interface ArgsError {
  readonly error: string;
}

/** One operation: how its arguments are checked, how it travels, and (as a type only) what it returns. */
export interface OperationSpec {
  /** One line saying what it does (docs, `--help`). */
  readonly summary: string;
  /** Checks untrusted arguments (an object, `{}` when none were given): the typed arguments, or what is wrong. */
  readonly parse: (args: Readonly<Record<string, unknown>>) => object;
  readonly http: HttpRoute;
  /** The `t` of the UI WebSocket message carrying it: `{t, ...args, ref}`, answered by `reply`. */
  readonly ws: string;
}

/** Declares an operation with result type `R`; its argument type is what `parse` returns when it accepts. */
function operation<R>() {
  return <const S extends OperationSpec>(spec: S): S & { readonly result?: R } => spec;
}

type NoArgs = Readonly<Record<string, never>>;
const noArgs = (): NoArgs => ({});

/** Trace ids as the hub names them (checked again by the hub before any file access). */
const TRACE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
/** Fault rule ids (`r12-3f9a`, or a tap's local ids). */
const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Every operation, by name. */
export const OPERATIONS = {
  hubStatus: operation<HubStatus>()({
    summary: "the hub's identity, ring position, attached taps and record count",
    parse: noArgs,
    http: route("GET", "/api/hub"),
    ws: "hub-status",
  }),
  listFaults: operation<{
    readonly rules: readonly FaultRule[];
    /** The armed rules with their target taps, acknowledgements and firings. */
    readonly faults: readonly ArmedFault[];
    /** Rules used up lately (newest first), with when and on which tap they fired. */
    readonly recent: readonly ArmedFault[];
  }>()({
    summary: "the armed fault rules with their target taps, remaining counts and firings",
    parse: noArgs,
    http: route("GET", "/api/faults"),
    ws: "fault-list",
  }),
  armFault: operation<{
    readonly rule: FaultRule;
    /** True for a rule that acts at once (kill or restart now) and is then removed. */
    readonly immediate: boolean;
    /** How many taps it was armed on (and that acknowledged it). */
    readonly taps: number;
    /** The rule on the board: its taps by name and pid, its state. */
    readonly fault?: ArmedFault;
  }>()({
    summary:
      "arms a fault rule on its target (one tap, or all live taps) and answers once every target acknowledged it",
    parse: (a) =>
      isJsonObject(a.spec)
        ? { spec: a.spec as unknown as FaultRuleSpec }
        : { error: "spec must be an object" },
    http: route("POST", "/api/faults", { body: "spec", status: 201 }),
    ws: "fault-arm",
  }),
  disarmFault: operation<{ readonly disarmed: string }>()({
    summary: "disarms one fault rule",
    parse: (a) =>
      typeof a.id === "string" && RULE_ID.test(a.id) ? { id: a.id } : { error: "id must be a rule id" },
    http: route("DELETE", "/api/faults/:id"),
    ws: "fault-disarm",
  }),
  clearFaults: operation<{ readonly cleared: number }>()({
    summary: "disarms every fault rule",
    parse: noArgs,
    http: route("DELETE", "/api/faults"),
    ws: "fault-clear",
  }),
  listTaps: operation<{ readonly taps: readonly TapSummary[] }>()({
    summary: "the taps of this hub run, live and recent: name, agent command and pids, status, connections",
    parse: noArgs,
    http: route("GET", "/api/taps"),
    ws: "tap-list",
  }),
  listTraces: operation<{ readonly traces: readonly TraceSummary[] }>()({
    summary: "the traces in the hub's folder, live and ended",
    parse: noArgs,
    http: route("GET", "/api/traces"),
    ws: "trace-list",
  }),
  readTrace: operation<{ readonly text: string }>()({
    summary: "one trace file (JSONL) exactly as the hub stored it",
    parse: (a) =>
      typeof a.id === "string" && TRACE_ID.test(a.id) ? { id: a.id } : { error: "id must be a trace id" },
    http: route("GET", "/api/traces/:id", { response: "file" }),
    ws: "trace-read",
  }),
  readTracePreviews: operation<{ readonly text: string }>()({
    summary:
      "one trace file as UIs get it: a frame over 256 KiB as its preview (readFrame gives it whole); for a reload after a gap",
    parse: (a) =>
      typeof a.id === "string" && TRACE_ID.test(a.id) ? { id: a.id } : { error: "id must be a trace id" },
    http: route("GET", "/api/traces/:id/previews", { response: "file" }),
    ws: "trace-read-previews",
  }),
  readFrame: operation<{ readonly frame: FrameRecord }>()({
    summary: "one frame of a trace whole, from the hub's file (UIs get large frames as previews)",
    parse: (a) => {
      const seq = typeof a.seq === "string" && /^[0-9]{1,16}$/.test(a.seq) ? Number(a.seq) : a.seq;
      if (typeof a.trace !== "string" || !TRACE_ID.test(a.trace))
        return { error: "trace must be a trace id" };
      if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= 0)
        return { error: "seq must be a positive integer" };
      return { trace: a.trace, seq };
    },
    http: route("GET", "/api/traces/:trace/frames/:seq"),
    ws: "frame-read",
  }),
  checkSchema: operation<{
    readonly reports: readonly FrameSchemaReport[];
    readonly summary: SchemaCheckSummary;
  }>()({
    summary: "every frame of one trace checked against the official ACP schema (what `validate` reports)",
    parse: (a) =>
      typeof a.id === "string" && TRACE_ID.test(a.id) ? { id: a.id } : { error: "id must be a trace id" },
    http: route("GET", "/api/traces/:id/schema"),
    ws: "schema-check",
  }),
  importTrace: operation<{
    readonly id: string;
    /** Valid records, and lines kept but flagged (unreadable, or a record with a wrong field). */
    readonly records: number;
    readonly flagged: number;
    /** What is wrong with the first flagged line. */
    readonly firstFlagged?: string;
    /** When the text was another tool's file (shared/trace/interchange/): its format, converted to ours first. */
    readonly convertedFrom?: string;
    /** With `convertedFrom`: entries the conversion could not take (kept as notes in the stored trace). */
    readonly conversionProblems?: number;
  }>()({
    summary:
      "stores a trace file in the hub's folder: our JSONL, or another tool's file (Zed log, sacp, ACP-inspector JSONL, HAR), converted first; says how many lines are flagged",
    parse: (a) =>
      typeof a.text === "string" ? { text: a.text } : { error: "text must be the trace's JSONL" },
    http: route("POST", "/api/traces", { body: "text", bodyType: "jsonl", status: 201 }),
    ws: "trace-import",
  }),
  demoStatus: operation<DemoStatus>()({
    summary: "the built-in demo's status (refused when the hub runs no demo)",
    parse: noArgs,
    http: route("GET", "/api/demo"),
    ws: "demo-get",
  }),
  demo: operation<{ readonly ok: true }>()({
    summary: "runs one command of the built-in demo (refused when the hub runs no demo)",
    parse: (a) => {
      const command = parseDemoCommand(a.command);
      return "error" in command ? command : { command: command as DemoCommand };
    },
    http: route("POST", "/api/demo", { body: "command" }),
    ws: "demo",
  }),
  conformanceStatus: operation<ConformanceBoard>()({
    summary: "the conformance board: agent choices and the current or last run",
    parse: noArgs,
    http: route("GET", "/api/conformance"),
    ws: "conformance-get",
  }),
  /** The reply names the run it started (`runId`, as the board will show it; absent from older hubs). */
  conformanceStart: operation<{ readonly ok: true; readonly runId?: string }>()({
    summary: "runs the conformance suite against one of the hub's agent choices, by id",
    parse: (a) => {
      const request = parseConformanceStart(a.request);
      return "error" in request ? request : { request: request as ConformanceStart };
    },
    http: route("POST", "/api/conformance/runs", { body: "request", status: 202 }),
    ws: "conformance-start",
  }),
  conformanceCancel: operation<{ readonly ok: true }>()({
    summary: "cancels the running conformance run",
    parse: noArgs,
    http: route("DELETE", "/api/conformance/runs"),
    ws: "conformance-cancel",
  }),
  conformanceStressStart: operation<{ readonly ok: true }>()({
    summary: "runs the stress mode (random fault schedules) against one of the hub's agent choices, by id",
    parse: (a) => {
      const request = parseStressStart(a.request);
      return "error" in request ? request : { request: request as StressStart };
    },
    http: route("POST", "/api/conformance/stress", { body: "request", status: 202 }),
    ws: "conformance-stress-start",
  }),
  conformanceStressCancel: operation<{ readonly ok: true }>()({
    summary: "cancels the running stress run",
    parse: noArgs,
    http: route("DELETE", "/api/conformance/stress"),
    ws: "conformance-stress-cancel",
  }),
  replay: operation<{ readonly ok: true; readonly runId: string; readonly traceId: string }>()({
    summary:
      "replays one of the hub's traces against one of its configured agents (replay TRACE -- AGENT); answers with the replay's live trace",
    parse: (a) =>
      typeof a.traceId !== "string" || !TRACE_ID.test(a.traceId)
        ? { error: "traceId must be a trace id" }
        : typeof a.agentId !== "string" || !RULE_ID.test(a.agentId)
          ? { error: "agentId must be an agent choice id" }
          : { traceId: a.traceId, agentId: a.agentId },
    http: route("POST", "/api/traces/:traceId/replays/:agentId", { status: 201 }),
    ws: "replay-start",
  }),
} as const;

/** The name of an operation. */
export type OperationName = keyof typeof OPERATIONS;

/** What `parse` accepted, without the `error?: undefined` TypeScript adds to object-literal unions. */
type Accepted<T> = { readonly [P in keyof T as P extends "error" ? never : P]: T[P] };

/** The validated arguments of operation `K`. */
export type OperationArgs<K extends OperationName> = Accepted<
  Exclude<ReturnType<(typeof OPERATIONS)[K]["parse"]>, ArgsError>
>;

/** What operation `K` resolves to. */
export type OperationResult<K extends OperationName> = NonNullable<(typeof OPERATIONS)[K]["result"]>;

/** Every operation name, in table order. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as readonly OperationName[];

/** A validated call: the name and its arguments, typed together. */
export type OperationCall = {
  [K in OperationName]: { readonly op: K; readonly args: OperationArgs<K> };
}[OperationName];

/** True when `op` names an operation. */
export function isOperationName(op: unknown): op is OperationName {
  return typeof op === "string" && Object.hasOwn(OPERATIONS, op);
}

/** Validates an untrusted `(op, args)` pair; the typed call, or what is wrong with it. */
export function parseOperationCall(op: unknown, args: unknown): OperationCall | ArgsError {
  if (!isOperationName(op)) return { error: `unknown operation ${JSON.stringify(op)}` };
  const raw = args === undefined ? {} : args;
  if (!isJsonObject(raw)) return { error: `${op}: arguments must be an object` };
  const parsed = (OPERATIONS[op].parse as (a: Record<string, unknown>) => unknown)(raw);
  if (isJsonObject(parsed) && typeof parsed.error === "string") return { error: `${op}: ${parsed.error}` };
  return { op, args: parsed } as OperationCall;
}

/** One function per operation, as every surface exposes them; calls without arguments may omit them. */
export type OperationFunctions = {
  [K in OperationName]: NoArgs extends OperationArgs<K>
    ? (args?: OperationArgs<K>) => Promise<OperationResult<K>>
    : (args: OperationArgs<K>) => Promise<OperationResult<K>>;
};

/** Builds the functions of every operation over one `call`, so a surface cannot miss one. */
export function operationFunctions(
  call: <K extends OperationName>(op: K, args: OperationArgs<K>) => Promise<OperationResult<K>>,
): OperationFunctions {
  const fns: Record<string, (args?: unknown) => Promise<unknown>> = {};
  for (const op of OPERATION_NAMES) fns[op] = (args) => call(op, (args ?? {}) as never);
  return fns as unknown as OperationFunctions;
}
