/**
 * The import step in front of the renderer's trace reader: a file in another tool's format (detected
 * from its content) becomes our trace text; our own trace text passes through untouched.
 */
import { convertToTrace, traceText } from "../../shared/trace/interchange/convert.js";
import { detectFormat } from "../../shared/trace/interchange/detect.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";

/** Our trace text for `text`, with the entries the conversion kept as notes; or why it is neither. */
export function asTraceText(text: string): { text: string; problems: readonly string[] } | { error: string } {
  const d = detectFormat(text.slice(0, 64 * 1024));
  // Our own format, or an empty file: the trace reader gives its own answer.
  if (("format" in d && d.format === TRACE_FORMAT) || text.trim() === "") return { text, problems: [] };
  const r = convertToTrace(text);
  if ("error" in r) return { error: r.error };
  return { text: traceText(r.header, r.records), problems: r.problems };
}
