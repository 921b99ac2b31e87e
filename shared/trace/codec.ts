import { checkHeader } from "./header-check.js";
import type { TraceHeader, TraceRecord } from "./record.js";
import { InvalidRecord, invalidRecord, RECORD_TYPES, recordFaults } from "./record-check.js";

/** Serialises the header as one JSONL line (with its newline). */
export function encodeHeader(header: TraceHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/** Serialises one record as one JSONL line (with its newline). JSON.stringify escapes newlines inside `raw`. */
export function encodeRecord(record: TraceRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The result of decoding one trace line. */
export type DecodedLine =
  | { readonly kind: "header"; readonly header: TraceHeader }
  | { readonly kind: "record"; readonly record: TraceRecord }
  /** A record whose fields are wrong (record-check.ts): kept as an entry that says what is wrong. */
  | { readonly kind: "invalid"; readonly invalid: InvalidRecord }
  | { readonly kind: "problem"; readonly message: string };

/** Decodes the first line of a trace file; a problem when it is not a header this version can read. */
export function decodeHeader(line: string): DecodedLine {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { kind: "problem", message: "the first line is not JSON, so this is not a trace file" };
  }
  const checked = checkHeader(v);
  return "problem" in checked
    ? { kind: "problem", message: checked.problem }
    : { kind: "header", header: checked.header };
}

/** Decodes one record line; a problem (never a throw) when it is not a record, an invalid entry when a field is wrong. */
export function decodeRecord(line: string): DecodedLine {
  const r = parseRecordLine(line);
  if (typeof r === "string") return { kind: "problem", message: r };
  return r instanceof InvalidRecord ? { kind: "invalid", invalid: r } : { kind: "record", record: r };
}

/**
 * Decodes one record line to the record itself, to the message saying why it is not one, or (a
 * record with a wrong field) to its `InvalidRecord` entry; never a throw. `decodeRecord` without
 * the wrapper object, for readers that handle millions of lines.
 */
export function parseRecordLine(line: string): TraceRecord | InvalidRecord | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    return `not JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  const r = v as { type?: unknown; seq?: unknown; ts?: unknown } | null;
  if (!r || typeof r !== "object" || typeof r.type !== "string" || !RECORD_TYPES.has(r.type)) {
    return "not a trace record (unknown or missing type)";
  }
  if (typeof r.seq !== "number" || typeof r.ts !== "number") {
    return "trace record without numeric seq and ts";
  }
  const faults = recordFaults(v as Record<string, unknown>);
  return faults === undefined ? (v as TraceRecord) : invalidRecord(v, faults);
}
