/**
 * The import step in front of every reader of an uploaded or opened file (the UI's Import, the
 * hub's `importTrace`): another tool's file, detected from its content, becomes our trace text; our
 * own trace text passes through untouched.
 */
import { TRACE_FORMAT } from "../record.js";
import { convertToTrace, traceText } from "./convert.js";
import { detectFormat } from "./detect.js";

/** Our trace text for `text`, the format it came from, and what the conversion kept as notes; or why it is neither. */
export function asTraceText(
  text: string,
): { text: string; format: string; problems: readonly string[] } | { error: string } {
  const d = detectFormat(text.slice(0, 64 * 1024));
  // Our own format, or an empty file: the trace reader gives its own answer.
  if (("format" in d && d.format === TRACE_FORMAT) || text.trim() === "")
    return { text, format: TRACE_FORMAT, problems: [] };
  const r = convertToTrace(text);
  if ("error" in r) return { error: r.error };
  return { text: traceText(r.header, r.records), format: r.format, problems: r.problems };
}
