/**
 * Joins the per-connection traces the tap wrote for one case (each tap numbers its only
 * connection #1) into one case trace with connections #1, #2, ... in the order they were opened.
 * Records are interleaved by timestamp, re-numbered with one growing `seq`, and frames keep their
 * exact bytes: only `seq`, `conn` and (to keep the clock monotonic) `ts` change. The agent's own
 * records (`agent-spawn`, `agent-exit`, `agent-stderr`) get their connection's number too.
 *
 * What the suite did to end each connection goes in as `note`s: when it closed the agent's input
 * (from then on the agent's stderr is flagged `teardown`: noise of a connection being closed, not
 * a crash), whether the agent then exited on its own (and how soon) or had to be stopped with
 * SIGTERM/SIGKILL, and a SIGKILL the restart case sent on purpose.
 */

import type { NoteRecord, TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { readTrace } from "../trace/trace-reader.js";
import { TraceWriter } from "../trace/trace-writer.js";

/** What the suite did to end one connection (epoch ms, the trace's clock). */
export interface ConnectionEnd {
  /** When the agent's input was closed (teardown starts). */
  inputClosedAt?: number;
  /** The last signal the suite sent because the agent had not exited in time. */
  signalled?: { readonly signal: "SIGTERM" | "SIGKILL"; readonly at: number };
  /** When the suite killed the agent on purpose (the restart case). */
  killedForRestartAt?: number;
}

/** One connection's trace file and, when known, how it ended. */
export interface ConnectionTrace {
  readonly file: string;
  readonly end?: ConnectionEnd;
}

interface Entry {
  readonly record: TraceRecord | Omit<NoteRecord, "seq">;
  readonly file: number;
}

/** Writes `out` from the traces of `connections` (connection n is `connections[n-1]`); missing or unreadable files become notes. */
export async function mergeConnectionTraces(
  connections: readonly (ConnectionTrace | string)[],
  out: string,
  fallbackHeader: TraceHeader,
): Promise<void> {
  let header: TraceHeader | undefined;
  const entries: Entry[] = [];
  const notes: string[] = [];
  for (const [index, item] of connections.entries()) {
    const { file, end } = typeof item === "string" ? { file: item, end: undefined } : item;
    const conn = index + 1;
    const own: TraceRecord[] = [];
    try {
      for await (const ev of readTrace(file)) {
        if (ev.kind === "header") header ??= ev.header;
        else if (ev.kind === "record") own.push(ev.record);
        else notes.push(`connection #${conn} trace line ${ev.line}: ${ev.message}`);
      }
    } catch (err) {
      notes.push(`connection #${conn} has no trace: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Teardown starts when the tap saw its input end (its own clock, like the agent's stderr records).
    const closedAt = end?.inputClosedAt === undefined ? undefined : inputEndTs(own, end.inputClosedAt);
    for (const record of own) {
      const teardown = record.type === "agent-stderr" && closedAt !== undefined && record.ts >= closedAt;
      entries.push({ record: teardown ? { ...record, teardown: true } : record, file: index });
    }
    if (end) for (const note of endNotes(conn, end, own)) entries.push({ record: note, file: index });
  }
  // Stable: records of one file keep their order; files interleave by their (wall-anchored) clocks.
  entries.sort((a, b) => a.record.ts - b.record.ts || a.file - b.file || seqOf(a) - seqOf(b));
  const writer = new TraceWriter(out, header ?? fallbackHeader);
  let seq = 0;
  let ts = entries[0]?.record.ts ?? Date.now();
  for (const text of notes) {
    writer.write({ seq: ++seq, ts, type: "note", level: "warn", text });
  }
  for (const { record, file } of entries) {
    ts = Math.max(ts, record.ts);
    const numbered =
      ("conn" in record && record.conn !== undefined) ||
      record.type === "agent-spawn" ||
      record.type === "agent-exit" ||
      record.type === "agent-stderr"
        ? { conn: file + 1 }
        : {};
    const { seq: _old, ...fields } = record as TraceRecord;
    writer.write({ seq: ++seq, ...fields, ...numbered, ts } as TraceRecord);
  }
  await writer.close();
}

/** Notes go after the records of their time; `Infinity` sorts a record-less note after its file's records. */
function seqOf(entry: Entry): number {
  return "seq" in entry.record ? entry.record.seq : Number.POSITIVE_INFINITY;
}

/**
 * When the tap saw the suite close its input, on the tap's clock: its `conn-close` for the client's
 * end of input, else the suite's own time (the two processes' clocks can differ by some ms).
 */
function inputEndTs(records: readonly TraceRecord[], suiteTime: number): number {
  const close = records.find((r) => r.type === "conn-close");
  return close?.type === "conn-close" && close.reason === "client closed stdin" ? close.ts : suiteTime;
}

/** The notes that say how connection `conn` was ended. */
function endNotes(
  conn: number,
  end: ConnectionEnd,
  records: readonly TraceRecord[],
): Omit<NoteRecord, "seq">[] {
  const notes: Omit<NoteRecord, "seq">[] = [];
  const exit = records.find((r) => r.type === "agent-exit");
  if (end.killedForRestartAt !== undefined) {
    notes.push({
      ts: end.killedForRestartAt,
      type: "note",
      level: "info",
      text: `connection #${conn}: the suite killed the agent with SIGKILL on purpose, to restart it`,
    });
    return notes;
  }
  if (end.inputClosedAt === undefined) return notes;
  const closed = inputEndTs(records, end.inputClosedAt);
  if (exit === undefined || exit.ts < closed) return notes; // it had ended before the suite closed anything
  notes.push({
    ts: closed,
    type: "note",
    level: "info",
    text: `connection #${conn}: the suite closed the agent's input (teardown); the agent's stderr from here on is marked teardown`,
  });
  const signalled = end.signalled;
  // Each side measured on its own clock: did the agent exit before the suite's grace ran out?
  if (signalled === undefined || exit.ts - closed < signalled.at - end.inputClosedAt) {
    const lingered = signalled ? `; the tap itself was then stopped with ${signalled.signal}` : "";
    notes.push({
      ts: exit.ts,
      type: "note",
      level: "info",
      text: `connection #${conn}: the agent ${exit.signal ? `ended (${exit.signal})` : "exited on its own"} ${Math.round(exit.ts - closed)} ms after its input closed${lingered}`,
    });
  } else {
    notes.push({
      ts: exit.ts,
      type: "note",
      level: "warn",
      text: `connection #${conn}: the agent had not exited ${Math.round(signalled.at - end.inputClosedAt)} ms after its input closed; the suite stopped it with ${signalled.signal}`,
    });
  }
  return notes;
}
