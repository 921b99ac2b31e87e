/**
 * Any supported file's text to our trace model, and our trace to its JSONL text: the one entry point
 * of the importers (`analyze`, `convert` and the UI's Import all go through `convertToTrace`).
 */
import { decodeHeader, decodeRecord, encodeHeader, encodeRecord } from "../codec.js";
import { TRACE_FORMAT, type TraceHeader, type TraceRecord } from "../record.js";
import { convertDevtoolsExport } from "./acp-devtools-export.js";
import { AcpInspectorLines, convertAcpInspectorJsonl } from "./acp-inspector-jsonl.js";
import type { Conversion, LineConversion } from "./conversion.js";
import { detectFormat, type InterchangeFormat } from "./detect.js";
import { convertHar } from "./har.js";
import { convertSacpTrace, SacpTraceLines } from "./sacp-trace.js";
import { convertZedLog } from "./zed-log.js";

/** A conversion and the format it came from, or why the text could not be converted. */
export type ConvertResult =
  | (Conversion & { readonly format: InterchangeFormat })
  | { readonly error: string; readonly format?: InterchangeFormat };

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch (err) {
    return { error: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** Our own trace text, read leniently (bad lines become problems, as the file reader does). */
function readOwn(text: string): ConvertResult {
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i] as string).trim() === "") i++;
  const head = decodeHeader(lines[i] ?? "");
  if (head.kind !== "header") return { error: head.kind === "problem" ? head.message : "no header" };
  const records: TraceRecord[] = [];
  const problems: string[] = [];
  for (let n = i + 1; n < lines.length; n++) {
    const line = lines[n] as string;
    if (line.trim() === "") continue;
    const d = decodeRecord(line);
    if (d.kind === "record") records.push(d.record);
    else if (d.kind === "problem") problems.push(`line ${n + 1}: ${d.message}`);
  }
  return { format: TRACE_FORMAT, header: head.header, records, problems };
}

/** Detects the format of `text` and converts it to our trace model; an error (never a throw) otherwise. */
export function convertToTrace(text: string): ConvertResult {
  const d = detectFormat(text);
  if ("error" in d) return d;
  const { format } = d;
  if (format === TRACE_FORMAT) return readOwn(text);
  if (format === "sacp-trace") return { format, ...convertSacpTrace(text) };
  if (format === "acp-inspector-jsonl") return { format, ...convertAcpInspectorJsonl(text) };
  const parsed = parseJson(text);
  if ("error" in parsed) return { format, error: `looks like a ${format} file but is ${parsed.error}` };
  if (format === "zed-log") {
    if (!Array.isArray(parsed.value)) return { format, error: "a Zed ACP log must be a JSON array" };
    return { format, ...convertZedLog(parsed.value) };
  }
  if (format === "acp-devtools-export") return { format, ...convertDevtoolsExport(parsed.value) };
  return { format, ...convertHar(parsed.value) };
}

/**
 * A line-at-a-time conversion for the formats of one JSON object per line (sacp, ACP-inspector),
 * which the UI's Import streams; null for the others, which are parsed whole.
 */
export function lineConversion(format: InterchangeFormat): LineConversion | null {
  if (format === "sacp-trace") return new SacpTraceLines();
  if (format === "acp-inspector-jsonl") return new AcpInspectorLines();
  return null;
}

/** Our trace file text (JSONL) of a header and its records. */
export function traceText(header: TraceHeader, records: readonly TraceRecord[]): string {
  return encodeHeader(header) + records.map(encodeRecord).join("");
}
