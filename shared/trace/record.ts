/**
 * The trace file model: one JSONL file per proxied connection set. Line 1 is a `TraceHeader`,
 * every later line one `TraceRecord`. `docs/trace-format.md` documents it for other tools.
 */

/** The `format` value of every trace header. */
export const TRACE_FORMAT = "acp-retry-inspector-trace";
/** The format version this code writes; readers accept this version and reject higher ones. */
export const TRACE_FORMAT_VERSION = 1;

/** Which way a frame travelled. */
export type Direction = "client->agent" | "agent->client";

/** First line of a trace file. */
export interface TraceHeader {
  readonly format: typeof TRACE_FORMAT;
  readonly version: number;
  /** The writing tool and its version, e.g. `acp-retry-inspector 0.1.0`. */
  readonly tool: string;
  /** Wall-clock start, ISO 8601. */
  readonly startedAt: string;
  /** The agent command the tap spawned (argv), when there is one. */
  readonly agent?: { readonly command: readonly string[]; readonly cwd?: string };
  /** How clients reach the tap: `stdio`, `ws`, `http`, ... */
  readonly transport?: string;
  /** The tap's name (`proxy --name`, or derived from the agent command and folder: `demo-agent @ myrepo`). */
  readonly name?: string;
  /** The tap (`proxy`) process's pid. The agent's pids come in `agent-spawn` records. */
  readonly tapPid?: number;
  /**
   * True in an export made by `redactTrace` (shared/trace/redact.ts): content was replaced by length
   * placeholders and frames were re-serialised, so `raw` is no longer the bytes on the wire.
   */
  readonly redacted?: boolean;
  /**
   * Present when this trace was converted from another tool's format (shared/trace/interchange/,
   * docs/interchange.md): which format, and what that source does not record.
   */
  readonly imported?: ImportedFrom;
  /** Present when this session is a `replay` of another trace: that trace's path as given, and its sha256 (hex). */
  readonly replayOf?: { readonly trace: string; readonly sha256: string };
  /**
   * Set by a reader, never by a tap: the header fields it dropped because they were wrong, and why
   * (`imported must be {format: string, lacks: list of strings}; left out`). See header-check.ts.
   */
  readonly headerFaults?: readonly string[];
}

/** Where a converted trace came from and what its source lacks (docs/interchange.md). */
export interface ImportedFrom {
  /** The source format: `zed-log`, `sacp-trace`, `acp-inspector-jsonl`, `har`. */
  readonly format: string;
  /**
   * What the source does not record: `timestamps` (none at all: `ts` is synthetic, order only),
   * `wall-clock` (times are relative to an unknown start), `exact-bytes` (frames were rebuilt from
   * parsed JSON), `event-times` (frames streamed in one HTTP response share that response's time).
   */
  readonly lacks: readonly string[];
}

/**
 * Why a frame is flagged. `malformed`: not a valid JSON-RPC 2.0 message (not JSON, not an object,
 * a batch array, missing fields). `not-utf8`: the bytes are not valid UTF-8 (`raw` is then base64).
 * `oversize`: longer than the tap records whole; `raw` holds only a prefix and `bytes` the full length.
 * `unterminated`: the stream ended before the line's newline.
 */
export type FrameFlag = "malformed" | "not-utf8" | "oversize" | "unterminated";

interface RecordBase {
  /** Only grows within a file, starting at 1. */
  readonly seq: number;
  /** Epoch milliseconds with sub-millisecond fraction, from a monotonic clock anchored at start. */
  readonly ts: number;
}

/** One line (one message) seen on a connection, with its exact bytes. */
export interface FrameRecord extends RecordBase {
  readonly type: "frame";
  /** Connection number, #1, #2, ...: JSON-RPC ids restart on every connection. */
  readonly conn: number;
  readonly dir: Direction;
  /** The exact bytes of the line without its terminating `\n`, as a string (base64 when `encoding` says so). */
  readonly raw: string;
  readonly encoding?: "base64";
  readonly flags?: readonly FrameFlag[];
  /** Full byte length of the line when `raw` holds less than all of it (`oversize`). */
  readonly bytes?: number;
  /** True when the inspector's fault injection swallowed this frame instead of forwarding it. */
  readonly dropped?: true;
  /**
   * True when a `delay` rule held this frame: it is recorded when it was held, and a later `fault`
   * record with this record's seq as `frameSeq` and a `fate` says whether it was released or never delivered.
   */
  readonly held?: true;
  /**
   * `"tap"`: the tap itself wrote this frame to the agent, or consumed the agent's answer to it
   * (the `initialize` and `session/resume`/`session/load` it replays after restarting the agent, and
   * the session updates the agent sends while answering them); the client never sent or saw it.
   * `"inspector"`: a retry the inspector made (the `retry`, `lose-and-retry` and `restart-and-retry`
   * faults): the resent request, the agent's answer to it, and that answer as rewritten to the
   * client's id and forwarded. Absent: the frame is the peers' own, byte for byte.
   */
  readonly origin?: "tap" | "inspector";
  /**
   * On a frame the tap wrote as a copy of another with only the JSON-RPC id changed: the id it
   * replaced. On a resent request: the client's id of the attempt it copies. On an answer forwarded
   * to the client: the tap-owned id the agent answered (the frame now carries the client's id).
   */
  readonly replaces?: string | number;
  /** With `replaces`: the `seq` of the frame this one copies. */
  readonly copyOf?: number;
  /**
   * Never in a trace file: set by the hub on a frame it sends a UI as a preview (frame-preview.ts),
   * the full frame's `raw` length in UTF-8 bytes. Its long strings are cut in `raw`; the UI fetches
   * the whole frame from the hub's trace file on demand (the `readFrame` operation).
   */
  readonly previewOf?: number;
  /**
   * Never in a trace file: set by the hub on the preview of an Agent->Client frame, the
   * idempotency keys of this trace's earlier `session/prompt` requests that the whole frame
   * contains (the key-leak scan run on its full bytes, since the preview's cut strings lost them).
   */
  readonly previewLeaks?: readonly string[];
}

/** A client connection opened. */
export interface ConnOpenRecord extends RecordBase {
  readonly type: "conn-open";
  readonly conn: number;
  readonly transport: string;
  /** Remote address or other peer description, when known. */
  readonly peer?: string;
}

/** A client connection closed. */
export interface ConnCloseRecord extends RecordBase {
  readonly type: "conn-close";
  readonly conn: number;
  /** Why it closed; every tap writes one, but a reader accepts a record without it. */
  readonly reason?: string;
}

/** The tap spawned the agent process. */
export interface AgentSpawnRecord extends RecordBase {
  readonly type: "agent-spawn";
  readonly pid: number;
  readonly command: readonly string[];
  /** The one connection this agent process serves, when the tap runs one agent per connection (remote fronts). */
  readonly conn?: number;
}

/** The agent process ended. */
export interface AgentExitRecord extends RecordBase {
  readonly type: "agent-exit";
  readonly pid: number;
  readonly code: number | null;
  readonly signal: string | null;
  /** The one connection this agent process served, when the tap runs one agent per connection. */
  readonly conn?: number;
}

/** One line the agent wrote to stderr (without its newline). */
export interface AgentStderrRecord extends RecordBase {
  readonly type: "agent-stderr";
  readonly pid?: number;
  readonly text: string;
  /** The connection whose agent wrote it, when the trace knows (the conformance suite's joined traces). */
  readonly conn?: number;
  /** Written after the client side began closing the connection: teardown noise, not a crash. */
  readonly teardown?: true;
}

/** The inspector applied a fault rule (drop, delay, disconnect, kill, restart). */
export interface FaultRecord extends RecordBase {
  readonly type: "fault";
  /** The rule's action, e.g. `drop-response`, `drop-request`, `delay`, `disconnect-client`, `kill-agent`, `restart-agent`, `retry`, `lose-and-retry`, `restart-and-retry`. */
  readonly action: string;
  /** The armed rule's id, when it came from a rule. */
  readonly ruleId?: string;
  readonly conn?: number;
  /** The `seq` of the frame the fault acted on, when it acted on one. */
  readonly frameSeq?: number;
  readonly detail?: string;
  /**
   * Only on the second record of a `delay`: what became of the frame held since the first one (which
   * has no `fate`, and is the one application). `released`: forwarded after `heldMs`;
   * `undelivered`: the connection closed, or the tap ended, first, so the frame never reached its peer.
   */
  readonly fate?: "released" | "undelivered";
  /** With `fate`: how long the frame was held, ms. */
  readonly heldMs?: number;
}

/** Something the tap itself wants on the record: a trace gap, a write error it recovered from, ... */
export interface NoteRecord extends RecordBase {
  readonly type: "note";
  readonly level: "info" | "warn" | "error";
  readonly text: string;
}

/** An attribute value of an agent's span: OTLP's scalar values, or a list of them. */
export type AgentSpanValue = string | number | boolean | readonly (string | number | boolean)[];

/**
 * One span the agent exported to the tap's OTLP receiver (`proxy --collect-agent-telemetry`,
 * docs/otel.md#the-agents-own-telemetry---collect-agent-telemetry), recorded when it arrived (`ts`).
 * Its own times are the agent's wall clock, epoch milliseconds.
 */
export interface AgentSpanRecord extends RecordBase {
  readonly type: "agent-span";
  /** 32 lowercase hex digits. */
  readonly traceId: string;
  /** 16 lowercase hex digits. */
  readonly spanId: string;
  /** 16 lowercase hex digits; absent for a root span. */
  readonly parentSpanId?: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (absent: unspecified). */
  readonly kind?: number;
  /** Start and end, epoch milliseconds (the agent's clock). */
  readonly startMs: number;
  readonly endMs: number;
  /** The span's attributes; kvlists and nested lists arrive as JSON text. */
  readonly attributes?: Readonly<Record<string, AgentSpanValue>>;
  /** OTLP's status, when set: `ok` or `error` (unset is absent). */
  readonly status?: "ok" | "error";
  readonly statusMessage?: string;
  /** The resource's `service.name`. */
  readonly service?: string;
  /** The connection whose agent sent it (each agent process gets its own receiver token). */
  readonly conn?: number;
  /** True when attributes or long strings were cut to the receiver's limits. */
  readonly truncated?: true;
}

/** Every record type that can follow the header. */
export type TraceRecord =
  | FrameRecord
  | ConnOpenRecord
  | ConnCloseRecord
  | AgentSpawnRecord
  | AgentExitRecord
  | AgentStderrRecord
  | FaultRecord
  | NoteRecord
  | AgentSpanRecord;
