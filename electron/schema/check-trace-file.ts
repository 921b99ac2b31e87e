import type { FrameSchemaReport, SchemaCheckSummary } from "../../shared/schema/schema-report.js";
import { importForeignFile } from "../trace/import-file.js";
import { readTrace, TraceReadError } from "../trace/trace-reader.js";
import { TraceSchemaCheck } from "./trace-schema-check.js";

/** How long the check runs before it lets other work on the event loop go first. */
const YIELD_AFTER_MS = 10;

/** Streams a trace file (or another tool's format, converted first) through the schema check; throws `TraceReadError` when unreadable. */
export async function checkTraceFile(
  path: string,
): Promise<{ reports: FrameSchemaReport[]; summary: SchemaCheckSummary }> {
  const check = new TraceSchemaCheck();
  const imported = importForeignFile(path);
  if (imported) {
    for (const r of imported.records) check.ingest(r);
    return { reports: check.reports, summary: check.summary() };
  }
  let sawHeader = false;
  let since = performance.now();
  for await (const ev of readTrace(path)) {
    if (ev.kind === "record") check.ingest(ev.record);
    else if (ev.kind === "header") sawHeader = true;
    if (performance.now() - since > YIELD_AFTER_MS) {
      // The hub runs this check on a live trace: its feed and its taps go on between slices.
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  if (!sawHeader) throw new TraceReadError(`not a trace file: ${path} is empty`);
  return { reports: check.reports, summary: check.summary() };
}
