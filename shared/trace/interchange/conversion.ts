/**
 * What every importer produces: a trace header that names the source format and what it lacks, the
 * records in order, and one message per entry of the source that could not be read (each such entry
 * is also kept in the trace as a `note` or a flagged frame, so nothing is lost).
 */
import { classifyFrame } from "../../protocol/frame.js";
import { isJsonObject } from "../../protocol/json-object.js";
import { jsonText } from "../json-depth.js";
import {
  type Direction,
  type FrameFlag,
  type FrameRecord,
  type ImportedFrom,
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceHeader,
  type TraceRecord,
} from "../record.js";
import { bytesBase64, utf8Decode } from "./bytes.js";

/** A source converted to our trace model. */
export interface Conversion {
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
  /** One line per source entry that was not a readable frame (kept in `records` as a note or a flagged frame). */
  readonly problems: readonly string[];
}

/** A record without the seq the builder assigns. */
type Unsequenced<R> = R extends TraceRecord ? Omit<R, "seq"> : never;

/** The tool name written into every converted header. */
export const CONVERTER_TOOL = "acp-retry-inspector convert";

/** Collects records in order, numbering them, and flags frames the way the tap does. */
export class RecordBuilder {
  readonly records: TraceRecord[] = [];
  readonly problems: string[] = [];
  private seq = 0;

  /** Appends a record (seq assigned here). */
  push(record: Unsequenced<TraceRecord>): void {
    this.records.push({ ...record, seq: ++this.seq } as TraceRecord);
  }

  /** The records and problems built since the last take (a conversion read as a stream of lines). */
  take(): { records: TraceRecord[]; problems: string[] } {
    return { records: this.records.splice(0), problems: this.problems.splice(0) };
  }

  /** A frame whose text is `raw`: flagged `malformed` unless it is one JSON-RPC 2.0 message. */
  frame(ts: number, conn: number, dir: Direction, raw: string, extra: Partial<FrameRecord> = {}): void {
    const flags: FrameFlag[] = [...(extra.flags ?? [])];
    if (classifyFrame(raw).kind === "malformed" && !flags.includes("malformed")) flags.unshift("malformed");
    this.push({ type: "frame", ts, conn, dir, raw, ...extra, ...(flags.length > 0 ? { flags } : {}) });
  }

  /** A frame given as bytes: text when they are UTF-8, else base64 flagged `not-utf8`. */
  frameBytes(
    ts: number,
    conn: number,
    dir: Direction,
    bytes: Uint8Array,
    extra: Partial<FrameRecord> = {},
  ): void {
    const text = utf8Decode(bytes);
    if (text !== null) this.frame(ts, conn, dir, text, extra);
    else {
      const flags = [...new Set<FrameFlag>(["malformed", "not-utf8", ...(extra.flags ?? [])])];
      this.push({
        type: "frame",
        ts,
        conn,
        dir,
        raw: bytesBase64(bytes),
        encoding: "base64",
        ...extra,
        flags,
      });
    }
  }

  /** An entry of the source that is not a frame: kept as a warn note with its text, and listed as a problem. */
  unreadable(ts: number, where: string, why: string, entry: unknown): void {
    const text = typeof entry === "string" ? entry : safeJson(entry);
    this.problems.push(`${where}: ${why}`);
    this.push({
      type: "note",
      ts,
      level: "warn",
      text: `not imported as a frame (${where}: ${why}): ${text}`,
    });
  }

  /** The finished conversion. */
  done(imported: ImportedFrom, startedAt: string, extra: Partial<TraceHeader> = {}): Conversion {
    return {
      header: convertedHeader(imported, startedAt, extra),
      records: this.records,
      problems: this.problems,
    };
  }
}

/** The header of a converted trace. */
export function convertedHeader(
  imported: ImportedFrom,
  startedAt: string,
  extra: Partial<TraceHeader> = {},
): TraceHeader {
  return {
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: CONVERTER_TOOL,
    startedAt,
    ...extra,
    imported,
  };
}

/**
 * A line-based format's conversion, a line at a time (the UI's Import streams these files): the
 * records so far are taken from `builder`; `header` is known once `ready`.
 */
export interface LineConversion {
  readonly builder: RecordBuilder;
  /** Converts one line of the source (`lineNo` from 1). */
  line(text: string, lineNo: number): void;
  /** True once the header can be given (an ACP-inspector recording's start is its first time). */
  readonly ready: boolean;
  header(): TraceHeader;
}

/** JSON text of any value at any depth, never a throw (a value that is no JSON says what it is). */
export function safeJson(v: unknown): string {
  try {
    const text = jsonText(v);
    if (text !== undefined) return text;
  } catch {
    // a toJSON that throws, a BigInt: described below
  }
  return v === null || typeof v !== "object"
    ? `(${typeof v})`
    : `(${Array.isArray(v) ? "array" : "object"} that is not JSON)`;
}

/**
 * Converts one entry of a source, never a throw: an entry that breaks its converter is kept as a
 * note with its text and listed as a problem, and the next entry is read (issue 31: one HAR entry
 * whose `startedDateTime` was `{"toString":0}` ended the whole import).
 */
export function convertEntry(
  b: RecordBuilder,
  ts: number,
  where: string,
  entry: unknown,
  convert: () => void,
): void {
  try {
    convert();
  } catch (err) {
    b.unreadable(ts, where, `could not be read (${err instanceof Error ? err.name : "error"})`, entry);
  }
}

/** ISO time of epoch milliseconds, or the epoch when not a valid time. */
export function isoTime(ms: number): string {
  const d = new Date(Number.isFinite(ms) ? ms : 0);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

/** A JSON-RPC 2.0 message text rebuilt from its parts (for sources that keep parsed messages, not bytes). */
export function jsonRpcText(parts: Record<string, unknown>): string {
  const out: Record<string, unknown> = { jsonrpc: "2.0" };
  for (const [k, v] of Object.entries(parts)) if (v !== undefined) out[k] = v;
  return jsonText(out) ?? "null";
}

/**
 * One line of a JSON Lines source as an object: null for a blank line, or for a line that is not
 * JSON or not an object (kept as a note with its text, flagged "not JSON" or "not an object").
 */
export function objectLine(
  b: RecordBuilder,
  ts: number,
  where: string,
  line: string,
): Record<string, unknown> | null {
  if (line.trim() === "") return null;
  let e: unknown;
  try {
    e = JSON.parse(line);
  } catch {
    b.unreadable(ts, where, "not JSON", line);
    return null;
  }
  if (!isJsonObject(e)) {
    b.unreadable(ts, where, "not an object", line);
    return null;
  }
  return e;
}

/** Converts the whole text of a line-based format with its line conversion. */
export function convertLines(c: LineConversion, text: string): Conversion {
  for (const [i, line] of text.split("\n").entries()) c.line(line, i + 1);
  return { header: c.header(), records: c.builder.records, problems: c.builder.problems };
}
