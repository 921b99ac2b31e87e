/**
 * The import step in front of the trace reader: a file in another tool's format (detected from its
 * first bytes, never its name) is read whole and converted to the trace model; our own trace files
 * return null and go on through the streaming reader unchanged.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { type ConvertResult, convertToTrace } from "../../shared/trace/interchange/convert.js";
import { detectFormat } from "../../shared/trace/interchange/detect.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { TraceReadError } from "./trace-reader.js";

/** Bytes read to detect a file's format. */
const SNIFF_BYTES = 64 * 1024;

function head(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new TraceReadError(`cannot read trace file ${path}: ${code}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Null when `path` is one of our trace files (or empty: the reader says so); else its conversion.
 * Throws `TraceReadError` when it is neither, or when a file that looks like an import cannot be read.
 */
export function importForeignFile(path: string): Extract<ConvertResult, { header: unknown }> | null {
  const prefix = head(path);
  if (prefix.trim() === "") return null;
  const d = detectFormat(prefix);
  if ("error" in d) throw new TraceReadError(`not a trace file or a supported import: ${d.error}`);
  if (d.format === TRACE_FORMAT) return null;
  const r = convertToTrace(readFileSync(path, "utf8"));
  if ("error" in r) throw new TraceReadError(`cannot import ${path}: ${r.error}`);
  return r;
}
