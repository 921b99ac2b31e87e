/**
 * What the hub does for each operation of `shared/ops/operations.ts`, once, whatever surface the
 * call came in on (`operation-routes.ts` for HTTP, `ui-endpoint.ts` for the UI WebSocket). Handlers
 * get validated arguments; a refusal is an `OperationFailure` whose kind each surface words its
 * own way (an HTTP status, a WebSocket `reply` with `ok: false`).
 */
import { readFile, stat } from "node:fs/promises";
import {
  OPERATIONS,
  type OperationArgs,
  type OperationName,
  type OperationResult,
  parseOperationCall,
} from "../../shared/ops/operations.js";
import { asTraceText } from "../../shared/trace/interchange/as-trace-text.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { checkTraceFile } from "../schema/check-trace-file.js";
import { TraceReadError } from "../trace/trace-reader.js";
import type { FaultBoard } from "./fault-board.js";
import type { ConformancePort } from "./ports/conformance-port.js";
import type { DemoPort } from "./ports/demo-port.js";
import type { ReplaySlot } from "./replay-runner.js";
import type { TraceStore } from "./trace-store.js";

/** The largest trace the hub checks against the ACP schema for a UI (the CLI's `validate` takes any size). */
const SCHEMA_CHECK_MAX_BYTES = 256 * 1024 * 1024;

import { previewedTrace } from "./ui-previews.js";

/** Why the hub refused a call: bad input, nothing of that name, or not possible now. */
export type FailureKind = "invalid" | "missing" | "conflict";

/** A refused call, in words for the user. */
export class OperationFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** A trace file a handler answers with; the surface streams or reads it. */
export interface TraceFileAnswer {
  readonly file: string;
  readonly bytes: number;
  readonly name: string;
  /** The file's first `bytes` as UIs get them (`previewedTrace`), not byte for byte. */
  readonly previews?: true;
}

/** What a handler returns: the result, or for a route answering with a file, the file that is the result's text. */
export type HandlerResult<K extends OperationName> = (typeof OPERATIONS)[K]["http"]["response"] extends "file"
  ? TraceFileAnswer
  : OperationResult<K>;

/** One handler per operation. */
export type OperationHandlers = {
  [K in OperationName]: (args: OperationArgs<K>) => Promise<HandlerResult<K>> | HandlerResult<K>;
};

/** What the handlers read and change. */
export interface HandlerDeps {
  readonly board: FaultBoard;
  readonly store: TraceStore;
  readonly importLimitBytes: number;
  /** The `hubStatus` answer. */
  readonly status: () => OperationResult<"hubStatus">;
  /** Taps attached right now. */
  readonly taps: () => number;
  /** The `listTaps` answer: live and recent taps, newest first. */
  readonly tapList: () => OperationResult<"listTaps">["taps"];
  /** How long `armFault` waits for the target taps to acknowledge. */
  readonly faultAckTimeoutMs: number;
  readonly demo: DemoPort;
  readonly conformance: ConformancePort;
  /** The replay runner's slot (`replay`); a hub without one refuses replays. */
  readonly replay?: ReplaySlot;
}

function unwrap<T extends { ok: boolean; error?: string }>(r: T, kind: FailureKind): T {
  if (!r.ok) throw new OperationFailure(kind, r.error ?? "refused");
  return r;
}

/** The hub's handlers over its parts. */
export function createOperationHandlers(deps: HandlerDeps): OperationHandlers {
  const { board, store, demo, conformance } = deps;
  return {
    hubStatus: () => deps.status(),
    listFaults: () => ({ rules: board.list(), ...board.views() }),
    armFault: async ({ spec }) => {
      const r = board.arm(spec);
      if (!r.ok) throw new OperationFailure("invalid", r.error);
      // shown as armed only once every target holds it; a rule no tap took is not left behind
      const acked = await board.whenAcked(r.rule.id, deps.faultAckTimeoutMs);
      if (!acked.ok) {
        board.disarm(r.rule.id);
        throw new OperationFailure("conflict", `${acked.error}; the rule was disarmed`);
      }
      const view = [...board.views().faults, ...board.views().recent].find((f) => f.rule.id === r.rule.id);
      return {
        rule: r.rule,
        immediate: r.immediate,
        taps: view?.taps.length ?? 0,
        ...(view && { fault: view }),
      };
    },
    disarmFault: ({ id }) => {
      if (!board.disarm(id)) throw new OperationFailure("missing", `no armed rule ${id}`);
      return { disarmed: id };
    },
    clearFaults: () => ({ cleared: board.clear() }),
    listTaps: () => ({ taps: deps.tapList() }),
    listTraces: async () => ({ traces: await store.list() }),
    readTrace: ({ id }) => traceFile(store, id),
    readTracePreviews: async ({ id }) => ({ ...(await traceFile(store, id)), previews: true }),
    readFrame: async ({ trace, seq }) => {
      const frame = await store.readFrame(trace, seq);
      if (!frame) throw new OperationFailure("missing", `the hub has no frame ${seq} in trace ${trace}`);
      return { frame };
    },
    checkSchema: async ({ id }) => {
      const path = store.pathOf(id);
      const size =
        path === undefined
          ? undefined
          : await stat(path).then(
              (st) => st.size,
              () => undefined,
            );
      if (path === undefined || size === undefined)
        throw new OperationFailure("missing", `the hub has no trace ${id}`);
      if (size > SCHEMA_CHECK_MAX_BYTES)
        throw new OperationFailure(
          "invalid",
          `trace ${id} is larger than ${SCHEMA_CHECK_MAX_BYTES} bytes: run acp-retry-inspector validate on it`,
        );
      try {
        return await checkTraceFile(path);
      } catch (err) {
        if (err instanceof TraceReadError) throw new OperationFailure("invalid", err.message);
        throw err;
      }
    },
    importTrace: async ({ text }) => {
      if (Buffer.byteLength(text, "utf8") > deps.importLimitBytes)
        throw new OperationFailure("invalid", `trace larger than ${deps.importLimitBytes} bytes`);
      // Another tool's file is converted to our trace first, as the UI's Import and `analyze` do.
      const converted = asTraceText(text);
      if ("error" in converted)
        throw new OperationFailure("invalid", `not a trace file or a supported import: ${converted.error}`);
      const body = textChunks(converted.text);
      const r = await store.importTrace(body, deps.importLimitBytes);
      if ("error" in r) throw new OperationFailure("invalid", r.error);
      return converted.format === TRACE_FORMAT
        ? r
        : { ...r, convertedFrom: converted.format, conversionProblems: converted.problems.length };
    },
    demoStatus: () => {
      const status = demo.status();
      if (!status)
        throw new OperationFailure("missing", "no demo is running on this hub (start it with serve --demo)");
      return status;
    },
    demo: async ({ command }) => {
      unwrap(await demo.run(command), demo.status() ? "invalid" : "missing");
      return { ok: true };
    },
    conformanceStatus: () => {
      const board = conformance.status();
      if (!board) throw new OperationFailure("missing", "this hub runs no conformance suite");
      return board;
    },
    conformanceStart: ({ request }) => {
      const r = unwrap(conformance.start(request), "conflict");
      return { ok: true, ...(r.ok && r.runId !== undefined && { runId: r.runId }) };
    },
    conformanceCancel: () => {
      unwrap(conformance.cancel(), "conflict");
      return { ok: true };
    },
    conformanceStressStart: ({ request }) => {
      unwrap(conformance.startStress(request), "conflict");
      return { ok: true };
    },
    conformanceStressCancel: () => {
      unwrap(conformance.cancelStress(), "conflict");
      return { ok: true };
    },
    replay: async ({ traceId, agentId }) => {
      const path = store.pathOf(traceId);
      const s = path ? await stat(path).catch(() => undefined) : undefined;
      if (!path || !s?.isFile()) throw new OperationFailure("missing", `the hub has no trace ${traceId}`);
      if (!deps.replay) throw new OperationFailure("missing", "this hub runs no replays");
      const r = await deps.replay.start({ sourcePath: path, agentId, traces: () => store.list() });
      if (!r.ok) throw new OperationFailure(r.kind, r.error);
      return { ok: true, runId: r.runId, traceId: r.traceId };
    },
  };
}

/** Characters of an import's text encoded per chunk written to the store. */
const IMPORT_CHUNK_CHARS = 1 << 20;

/**
 * `text` as UTF-8 chunks of about 1 MiB each, never cutting a surrogate pair, so a large import is
 * never a second copy of itself in memory (one Buffer of the whole text was).
 */
async function* textChunks(text: string): AsyncGenerator<Buffer> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + IMPORT_CHUNK_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield Buffer.from(text.slice(at, end), "utf8");
    at = end;
  }
}

/** Trace `id`'s file and its size now (a live trace may grow while it is sent). */
async function traceFile(store: TraceStore, id: string): Promise<TraceFileAnswer> {
  const file = store.pathOf(id);
  const s = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !s?.isFile()) throw new OperationFailure("missing", `the hub has no trace ${id}`);
  return { file, bytes: s.size, name: `${id}.jsonl` };
}

/** The text of a file answer: the file's bytes, or its lines as UIs get them. */
async function answerText(answer: TraceFileAnswer): Promise<string> {
  if (!answer.previews) return readFile(answer.file, "utf8");
  let text = "";
  for await (const chunk of previewedTrace(answer.file, answer.bytes)) text += chunk;
  return text;
}

/**
 * Validates and runs one call for a message surface (the UI WebSocket, the Electron IPC): the
 * result as a value (a `readTrace` file read into its text), or the refusal's words.
 */
export async function runOperation(
  handlers: OperationHandlers,
  op: OperationName,
  args: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  const call = parseOperationCall(op, args);
  if ("error" in call) return { ok: false, error: call.error };
  try {
    const run = handlers[call.op] as (a: unknown) => unknown;
    const result = await run(call.args);
    if (OPERATIONS[call.op].http.response !== "file") return { ok: true, value: result };
    const answer = result as TraceFileAnswer;
    return { ok: true, value: { text: await answerText(answer) } };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
