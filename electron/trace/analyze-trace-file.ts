import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../shared/analyzer/timeline-model.js";
import { readTrace, TraceReadError } from "./trace-reader.js";

/** Streams a trace file through a fresh analyzer; throws `TraceReadError` when the file is not a readable trace. */
export async function analyzeTraceFile(path: string): Promise<{ analyzer: Analyzer; model: TimelineModel }> {
  const analyzer = new Analyzer();
  let sawHeader = false;
  for await (const ev of readTrace(path)) {
    if (ev.kind === "record") analyzer.ingest(ev.record);
    else if (ev.kind === "invalid") analyzer.ingestInvalid(ev.invalid, ev.line);
    else if (ev.kind === "header") {
      sawHeader = true;
      analyzer.ingestHeader(ev.header);
    } else analyzer.ingestProblem({ line: ev.line, message: ev.message, truncated: ev.truncated });
  }
  if (!sawHeader) throw new TraceReadError(`not a trace file: ${path} is empty`);
  return { analyzer, model: analyzer.model() };
}
