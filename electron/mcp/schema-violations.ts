/**
 * The MCP `list_violations` answer: one trace's frames checked against the official ACP schema
 * (electron/schema/, docs/analyzer.md#schema-check). The check reads the file itself; what it returns
 * holds no wire values, only seqs, methods, schema types, JSON paths (property names, which
 * redaction keeps too) and the schema's own words.
 */
import { checkTraceFile } from "../schema/check-trace-file.js";
import { TraceReadError } from "../trace/trace-reader.js";
import { MAX_TRACE_BYTES } from "./redacted-trace.js";
import { type TraceEntry, TraceRequestError } from "./trace-catalogue.js";

/** Frames listed at most (the default is 50). */
export const MAX_VIOLATION_FRAMES = 500;

/** The frames of `entry` that break the schema (and, with `extensions`, those that only carry extension fields), the first `limit`. */
export async function listViolations(entry: TraceEntry, limit = 50, extensions = false) {
  if (entry.bytes > MAX_TRACE_BYTES)
    throw new TraceRequestError(
      `${entry.name} is ${entry.bytes} bytes, more than this server reads (${MAX_TRACE_BYTES}); use acp-retry-inspector validate on it`,
    );
  let checked: Awaited<ReturnType<typeof checkTraceFile>>;
  try {
    checked = await checkTraceFile(entry.path);
  } catch (err) {
    if (err instanceof TraceReadError) throw new TraceRequestError(`${entry.name} cannot be read as a trace`);
    throw err;
  }
  const shown = checked.reports.filter(
    (r) => r.violations.length > 0 || (extensions && r.extensions.length > 0),
  );
  return {
    trace: entry.name,
    summary: checked.summary,
    frames: shown.slice(0, limit),
    framesLeftOff: Math.max(0, shown.length - limit),
  };
}
