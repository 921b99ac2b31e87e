/**
 * A trace as the MCP server shows it: read once, redacted as `export` redacts (content and
 * credentials become placeholders that state their length; ids, keys, methods and structure stay),
 * then analysed, so every verdict, row and frame a tool returns comes from the redacted records.
 * Unreadable and invalid lines are counted by line number only: their text is never shown.
 */

import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../shared/analyzer/timeline-model.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { promptKey, TraceRedactor } from "../../shared/trace/redact.js";
import { readTrace, TraceReadError } from "../trace/trace-reader.js";
import { type TraceEntry, TraceRequestError } from "./trace-catalogue.js";

/** The largest trace file the server reads (it keeps the redacted records in memory); `analyze` reads any size. */
export const MAX_TRACE_BYTES = 128 * 1024 * 1024;
/** Line numbers of unreadable or invalid lines kept; the rest are counted. */
const LISTED_BAD_LINES = 20;
/** Traces kept loaded (the most recently used). */
const CACHED_TRACES = 4;

/** A redacted, analysed trace. */
export interface RedactedTrace {
  readonly entry: TraceEntry;
  readonly header: TraceHeader;
  readonly model: TimelineModel;
  /** Redacted frames by seq. */
  readonly frames: ReadonlyMap<number, FrameRecord>;
  /** Lines that could not be read or held an invalid record: how many, and the first line numbers. */
  readonly badLines: { readonly count: number; readonly lines: readonly number[] };
}

/** Reads and redacts traces, keeping the last few (a file that changed on disk is read again). */
export class RedactedTraces {
  private readonly cache = new Map<string, { bytes: number; modified: string; trace: RedactedTrace }>();

  /** The redacted trace of `entry`; throws `TraceRequestError` when it is too large or not a trace. */
  async load(entry: TraceEntry): Promise<RedactedTrace> {
    const cached = this.cache.get(entry.path);
    if (cached && cached.bytes === entry.bytes && cached.modified === entry.modified) {
      this.cache.delete(entry.path);
      this.cache.set(entry.path, cached);
      return cached.trace;
    }
    const trace = await readRedacted(entry);
    this.cache.set(entry.path, { bytes: entry.bytes, modified: entry.modified, trace });
    while (this.cache.size > CACHED_TRACES) this.cache.delete(this.cache.keys().next().value as string);
    return trace;
  }
}

/** The records of one trace file as read, before redaction. */
interface ReadTrace {
  readonly entry: TraceEntry;
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
  readonly badLines: RedactedTrace["badLines"];
}

async function readRecords(entry: TraceEntry): Promise<ReadTrace> {
  if (entry.bytes > MAX_TRACE_BYTES)
    throw new TraceRequestError(
      `${entry.name} is ${entry.bytes} bytes, more than this server reads (${MAX_TRACE_BYTES}); use acp-retry-inspector analyze or export on it`,
    );
  let header: TraceHeader | undefined;
  const records: TraceRecord[] = [];
  const bad: number[] = [];
  let badCount = 0;
  try {
    // Only the bytes listed: a tap still appending does not make the read grow past the limit.
    for await (const ev of readTrace(entry.path, { bytes: entry.bytes })) {
      if (ev.kind === "header") header = ev.header;
      else if (ev.kind === "record") records.push(ev.record);
      else {
        badCount++;
        if (bad.length < LISTED_BAD_LINES) bad.push(ev.line);
      }
    }
  } catch (err) {
    if (err instanceof TraceReadError) throw new TraceRequestError(`${entry.name} cannot be read as a trace`);
    throw err;
  }
  if (header === undefined) throw new TraceRequestError(`${entry.name} is not a trace (no header)`);
  return { entry, header, records, badLines: { count: badCount, lines: bad } };
}

/** A redactor that keeps the idempotency keys of every trace given visible. */
function redactorOf(traces: readonly ReadTrace[]): TraceRedactor {
  const keys = new Set<string>();
  for (const t of traces)
    for (const r of t.records) {
      const key = promptKey(r);
      if (key !== undefined) keys.add(key);
    }
  return new TraceRedactor(keys);
}

function redactAndAnalyze(read: ReadTrace, redactor: TraceRedactor): RedactedTrace {
  const redactedHeader = redactor.header(read.header);
  const analyzer = new Analyzer();
  analyzer.ingestHeader(redactedHeader);
  const frames = new Map<number, FrameRecord>();
  for (const record of read.records) {
    const r = redactor.record(record);
    analyzer.ingest(r);
    if (r.type === "frame") frames.set(r.seq, r);
  }
  return {
    entry: read.entry,
    header: redactedHeader,
    model: analyzer.model(),
    frames,
    badLines: read.badLines,
  };
}

async function readRedacted(entry: TraceEntry): Promise<RedactedTrace> {
  const read = await readRecords(entry);
  return redactAndAnalyze(read, redactorOf([read]));
}

/**
 * Two traces redacted by one redactor (not kept): a string both hold gets the same placeholder in
 * both, so the diff pairs equal prompts as it does on the originals. The placeholders' numbers are
 * the pair's, not those the other tools show for each trace alone.
 */
export async function loadRedactedPair(
  a: TraceEntry,
  b: TraceEntry,
): Promise<[RedactedTrace, RedactedTrace]> {
  const readA = await readRecords(a);
  const readB = await readRecords(b);
  const redactor = redactorOf([readA, readB]);
  return [redactAndAnalyze(readA, redactor), redactAndAnalyze(readB, redactor)];
}
