/**
 * Joins the per-connection traces the tap wrote for one case (each tap numbers its only
 * connection #1) into one case trace with connections #1, #2, ... in the order they were opened.
 * Records are interleaved by timestamp, re-numbered with one growing `seq`, and frames keep their
 * exact bytes: only `seq`, `conn` and (to keep the clock monotonic) `ts` change.
 */

import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { readTrace } from "../trace/trace-reader.js";
import { TraceWriter } from "../trace/trace-writer.js";

interface Entry {
  readonly record: TraceRecord;
  readonly file: number;
}

/** Writes `out` from the traces in `files` (connection n is `files[n-1]`); missing or unreadable files become notes. */
export async function mergeConnectionTraces(
  files: readonly string[],
  out: string,
  fallbackHeader: TraceHeader,
): Promise<void> {
  let header: TraceHeader | undefined;
  const entries: Entry[] = [];
  const notes: string[] = [];
  for (const [index, file] of files.entries()) {
    try {
      for await (const ev of readTrace(file)) {
        if (ev.kind === "header") header ??= ev.header;
        else if (ev.kind === "record") entries.push({ record: ev.record, file: index });
        else notes.push(`connection #${index + 1} trace line ${ev.line}: ${ev.message}`);
      }
    } catch (err) {
      notes.push(
        `connection #${index + 1} has no trace: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  // Stable: records of one file keep their order; files interleave by their (wall-anchored) clocks.
  entries.sort((a, b) => a.record.ts - b.record.ts || a.file - b.file || a.record.seq - b.record.seq);
  const writer = new TraceWriter(out, header ?? fallbackHeader);
  let seq = 0;
  let ts = entries[0]?.record.ts ?? Date.now();
  for (const text of notes) {
    writer.write({ seq: ++seq, ts, type: "note", level: "warn", text });
  }
  for (const { record, file } of entries) {
    ts = Math.max(ts, record.ts);
    const renumbered = "conn" in record && record.conn !== undefined ? { conn: file + 1 } : {};
    writer.write({ ...record, ...renumbered, seq: ++seq, ts } as TraceRecord);
  }
  await writer.close();
}
