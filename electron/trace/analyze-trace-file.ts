import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../shared/analyzer/timeline-model.js";
import type { Frame } from "../../shared/protocol/frame.js";
import type { NoteRecord, TraceRecord } from "../../shared/trace/record.js";
import { importForeignFile } from "./import-file.js";
import { SeqGaps } from "./seq-gaps.js";
import { type ReadTraceOptions, readTrace, TraceReadError } from "./trace-reader.js";

/** How many `note` records `analyzeTraceFile` keeps (the first ones). */
export const MAX_NOTES = 100;

/**
 * Streams a trace file through a fresh analyzer; throws `TraceReadError` when the file is not a
 * readable trace. A file in another tool's format (docs/interchange.md) is converted first. Also
 * returns the trace's first `note` records (what the tap or the suite said: an agent that could not
 * be started, a connection closed for teardown, ...), which the model leaves out, and the holes in
 * the trace's seqs (records missing from the file: seq-gaps.ts; none for a converted file, whose
 * seqs are the converter's).
 */
export async function analyzeTraceFile(
  path: string,
  options: Pick<ReadTraceOptions, "maxLineBytes"> & {
    /**
     * Sees every record the analyzer ingests, in order (e.g. the schema check of `analyze --schema`), with the
     * frame as the analyzer parsed it when it did (so the observer need not parse it again).
     */
    readonly observe?: (record: TraceRecord, parsed: Frame | undefined) => void;
  } = {},
): Promise<{ analyzer: Analyzer; model: TimelineModel; notes: NoteRecord[]; gaps: SeqGaps }> {
  const analyzer = new Analyzer();
  const gaps = new SeqGaps();
  const notes: NoteRecord[] = [];
  const imported = importForeignFile(path);
  if (imported) {
    analyzer.ingestHeader(imported.header);
    for (const r of imported.records) {
      const parsed = analyzer.ingest(r);
      options.observe?.(r, parsed);
      if (r.type === "note" && notes.length < MAX_NOTES) notes.push(r);
    }
    // Each problem names its entry; line 0: it is not a line of a trace file.
    for (const message of imported.problems) analyzer.ingestProblem({ line: 0, message, truncated: false });
    return { analyzer, model: analyzer.model(), notes, gaps };
  }
  let sawHeader = false;
  for await (const ev of readTrace(path, options)) {
    if (ev.kind === "record") {
      gaps.take(ev.record.seq, ev.record);
      const parsed = analyzer.ingest(ev.record);
      options.observe?.(ev.record, parsed);
      if (ev.record.type === "note" && notes.length < MAX_NOTES) notes.push(ev.record);
    } else if (ev.kind === "invalid") {
      if (ev.invalid.seq !== null) gaps.take(ev.invalid.seq);
      analyzer.ingestInvalid(ev.invalid, ev.line);
    } else if (ev.kind === "header") {
      sawHeader = true;
      analyzer.ingestHeader(ev.header);
    } else analyzer.ingestProblem({ line: ev.line, message: ev.message, truncated: ev.truncated });
  }
  if (!sawHeader) throw new TraceReadError(`not a trace file: ${path} is empty`);
  return { analyzer, model: analyzer.model(), notes, gaps };
}
