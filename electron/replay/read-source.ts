/**
 * Reads the trace `replay` plays: our own format or any import (detected from the content, as
 * `analyze` and `convert` do), with the sha256 of its bytes for the replay's header.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { convertToTrace } from "../../shared/trace/interchange/convert.js";
import { FORMAT_LABELS } from "../../shared/trace/interchange/detect.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";

/** The source trace, read whole. */
export interface ReplaySource {
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
  /** sha256 of the file's bytes, lowercase hex. */
  readonly sha256: string;
  /** What the file is (`acp-retry-inspector trace`, `Zed ACP log (Copy All)`, ...). */
  readonly formatLabel: string;
  /** Lines or entries that could not be read (kept in `records` as notes). */
  readonly problems: readonly string[];
}

/** Reads `path`; returns why it cannot be replayed instead (unreadable, not a trace, no header). */
export function readReplaySource(path: string): ReplaySource | { readonly error: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { error: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const r = convertToTrace(bytes.toString("utf8"));
  if ("error" in r) return { error: `${path}: ${r.error}` };
  return {
    header: r.header,
    records: r.records,
    sha256,
    formatLabel: FORMAT_LABELS[r.format],
    problems: r.problems,
  };
}
