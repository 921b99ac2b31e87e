/** Builds the file an export saves: redacted by default, the full trace only when asked. */
import { encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { redactTrace } from "../../../shared/trace/redact.js";

/** The exported file's name and text. */
export interface TraceExport {
  readonly fileName: string;
  readonly text: string;
}

/** Encodes a trace for saving; `full` keeps prompt text and file contents, otherwise they are redacted. */
export function exportTrace(
  name: string,
  header: TraceHeader,
  records: readonly TraceRecord[],
  full: boolean,
): TraceExport {
  const out = redactTrace(header, records, { full });
  const base = name.replace(/\.jsonl$/i, "").replace(/[^A-Za-z0-9._-]+/g, "_") || "trace";
  return {
    fileName: `${base}${full ? "-full" : "-redacted"}.jsonl`,
    text: encodeHeader(out.header) + out.records.map(encodeRecord).join(""),
  };
}
