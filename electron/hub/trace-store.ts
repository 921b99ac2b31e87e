import { randomBytes } from "node:crypto";
import { closeSync, createWriteStream, fstatSync, openSync, readSync, type WriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { TraceSummary } from "../../shared/hub/hub-event.js";
import { LineCutter } from "../../shared/protocol/line-cutter.js";
import {
  decodeHeader,
  decodeRecord,
  encodeHeader,
  encodeRecord,
  parseRecordLine,
} from "../../shared/trace/codec.js";
import { FRAME_PREVIEW_BYTES } from "../../shared/trace/frame-preview.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { checkRecord, describeInvalid, InvalidRecord } from "../../shared/trace/record-check.js";
import { gapNote } from "../trace/seq-gaps.js";
import { readTrace } from "../trace/trace-reader.js";

const TRACE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const EXT = ".jsonl";

/** One tap's trace being written by the hub: append-only, with the tap's own seq preserved. */
export interface LiveTrace {
  readonly traceId: string;
  /** The highest tap seq written so far (0 before any record); records at or below it are duplicates. */
  readonly lastSeq: number;
  /**
   * Appends the records with seq > lastSeq (older ones are resends and skipped); returns those
   * records, in order, with their trace lines and the bytes written. Each one is checked
   * (shared/trace/record-check.ts): an invalid one is stored as the tap sent it, so nothing is
   * lost and every reader flags it again, and is returned in `invalid`, never in `records`; one
   * without a valid seq never moves `lastSeq`.
   * `onStored(upTo)` runs once the lines are handed to the operating system (so they survive the
   * hub being killed). Where the seqs jump (records the tap's link dropped, or never sent here), a
   * gap note (electron/trace/seq-gaps.ts) is stored before the record after the hole, saying which
   * seqs, how many and why: `tapDropped` is the count the tap reported dropped with this batch.
   */
  append(records: readonly unknown[], onStored?: (upTo: number) => void, tapDropped?: number): StoredRecords;
}

/** The records a `LiveTrace.append` wrote, each one's trace line, and the bytes written. */
export interface StoredRecords {
  /** The valid records stored, in order. */
  readonly records: readonly TraceRecord[];
  /** The invalid ones stored, in order (their lines are among `lines`). */
  readonly invalid: readonly InvalidRecord[];
  /** Every stored entry as it was given, valid and invalid, one per line. */
  readonly entries: readonly unknown[];
  /** Each stored entry's trace line without its newline, valid and invalid, in order. */
  readonly lines: readonly string[];
  /** The lines joined by newlines, UTF-8: what went to the file, less the last newline. */
  readonly bytes: Buffer;
}

const NO_BYTES = Buffer.alloc(0);

interface OpenTrace {
  traceId: string;
  lastSeq: number;
  out: WriteStream;
  attached: number;
  /** Bytes in the file once every write so far lands (where the next line starts). */
  size: number;
  /** Where each large frame's line is in the file, by seq (only frames a UI gets as a preview). */
  readonly largeFrames: Map<number, { readonly offset: number; readonly length: number }>;
  /** Records the tap said its link dropped that no gap note has accounted for yet. */
  reportedDrops: number;
  /** Entries stored since the last one with a valid seq that had none (they may fill a hole). */
  unnumbered: number;
}

function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * The hub's traces folder: one JSONL trace file per tap (header line, then records), plus imported
 * traces. Lists, exports and imports them; ids are file-name safe and checked on every lookup.
 */
export class TraceStore {
  private readonly byTap = new Map<string, OpenTrace>();

  constructor(readonly dir: string) {}

  /** Creates the folder (mode 0700) if needed. */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Opens (or, for a tap seen before, reopens) the trace of tap `tapId`. The id derives from the
   * tap's start time and id, so a tap re-attaching to a new hub on the same folder continues its
   * file: the hub reads the last stored seq back and appends after it.
   */
  attach(tapId: string, header: TraceHeader): LiveTrace {
    let t = this.byTap.get(tapId);
    if (!t) {
      const started = new Date(header.startedAt);
      const traceId = `${stamp(Number.isNaN(started.getTime()) ? new Date() : started)}-${tapId.slice(0, 12)}`;
      const path = join(this.dir, traceId + EXT);
      const existing = lastStoredSeq(path);
      const out = createWriteStream(path, { flags: "a", mode: 0o600 });
      out.on("error", () => {}); // a full disk must not take the hub down; the tap's own file is the record
      let size = existing?.size ?? 0;
      if (!existing) {
        const head = encodeHeader(header);
        out.write(head);
        size += Buffer.byteLength(head);
      } else if (!existing.endsWithNewline) {
        out.write("\n"); // a line cut by a killed hub stays one bad line
        size++;
      }
      t = {
        traceId,
        lastSeq: existing?.seq ?? 0,
        out,
        attached: 0,
        size,
        largeFrames: new Map(),
        reportedDrops: 0,
        unnumbered: 0,
      };
      this.byTap.set(tapId, t);
    }
    t.attached++;
    const trace = t;
    return {
      traceId: trace.traceId,
      get lastSeq() {
        return trace.lastSeq;
      },
      append(values, onStored, tapDropped) {
        const fresh: unknown[] = [];
        let large = false;
        const valid: TraceRecord[] = [];
        const invalid: InvalidRecord[] = [];
        if (tapDropped !== undefined && tapDropped > 0) trace.reportedDrops += tapDropped;
        /**
         * Writes down the hole before `seq`, if there is one: a gap note in its last seq. A hole no
         * larger than the entries stored without a valid seq since the last seq may be those entries
         * (kept flagged): no note then.
         */
        const noteGap = (seq: number, ts: number) => {
          const unnumbered = trace.unnumbered;
          trace.unnumbered = 0;
          if (seq <= trace.lastSeq + 1 || seq - trace.lastSeq - 1 <= unnumbered) return;
          const from = trace.lastSeq + 1;
          const reason = trace.reportedDrops > 0 ? "tap-dropped" : "not-received";
          trace.reportedDrops = Math.max(0, trace.reportedDrops - (seq - from));
          const note = gapNote(from, seq - 1, reason, ts);
          valid.push(note);
          fresh.push(note);
        };
        for (const value of values) {
          const record = checkRecord(value);
          if (record instanceof InvalidRecord) {
            if (record.seq !== null) {
              if (record.seq <= trace.lastSeq) continue;
              noteGap(record.seq, Number((value as { ts?: unknown }).ts) || Date.now());
              trace.lastSeq = record.seq;
            } else trace.unnumbered++;
            invalid.push(record);
          } else {
            if (record.seq <= trace.lastSeq) continue;
            noteGap(record.seq, record.ts);
            trace.lastSeq = record.seq;
            valid.push(record);
            if (record.type === "frame" && record.raw.length * 3 > FRAME_PREVIEW_BYTES) large = true;
          }
          fresh.push(value);
        }
        const upTo = trace.lastSeq;
        if (fresh.length === 0) {
          onStored?.(upTo);
          return { records: valid, invalid, entries: fresh, lines: [], bytes: NO_BYTES };
        }
        const { lines, text } = encodeLines(fresh as TraceRecord[]);
        // encoded here, not by the stream, so the hub's event ring can hold the same bytes; one
        // write with the last newline, so a killed hub never leaves a whole line unterminated
        const size = Buffer.byteLength(text);
        const out = Buffer.allocUnsafe(size + 1);
        out.write(text);
        out[size] = 0x0a;
        if (large) indexLargeFrames(trace, fresh, lines);
        trace.size += out.length;
        trace.out.write(out, () => onStored?.(upTo));
        return { records: valid, invalid, entries: fresh, lines, bytes: out.subarray(0, size) };
      },
    };
  }

  /** The tap detached; the file stays open for its return until `close()`. */
  detach(tapId: string): void {
    const t = this.byTap.get(tapId);
    if (t) t.attached = Math.max(0, t.attached - 1);
  }

  /** The ids of the traces this hub run has written, oldest first. */
  traceIds(): string[] {
    return [...this.byTap.values()].map((t) => t.traceId);
  }

  /** Whether a trace is still being written by an attached tap. */
  isLive(traceId: string): boolean {
    for (const t of this.byTap.values()) if (t.traceId === traceId && t.attached > 0) return true;
    return false;
  }

  /** Flushes and closes every trace file. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.byTap.values()].map((t) => new Promise<void>((resolve) => t.out.end(() => resolve()))),
    );
    this.byTap.clear();
  }

  /**
   * The frame with `seq` of trace `id`, whole, as the file holds it: read straight from its place
   * for a large frame this hub stored (the ones UIs get as previews), else found by reading the
   * file through. Undefined when the trace or the frame is not there.
   */
  async readFrame(id: string, seq: number): Promise<FrameRecord | undefined> {
    const path = this.pathOf(id);
    if (!path) return undefined;
    let at: { offset: number; length: number } | undefined;
    for (const t of this.byTap.values()) if (t.traceId === id) at = t.largeFrames.get(seq);
    if (at) {
      const fh = await open(path, "r").catch(() => undefined);
      if (fh) {
        try {
          const buf = Buffer.alloc(at.length);
          const { bytesRead } = await fh.read(buf, 0, at.length, at.offset);
          const r = parseRecordLine(buf.subarray(0, bytesRead).toString("utf8"));
          if (typeof r !== "string" && !(r instanceof InvalidRecord) && r.type === "frame" && r.seq === seq)
            return r;
        } finally {
          await fh.close();
        }
      }
    }
    try {
      for await (const ev of readTrace(path)) {
        if (ev.kind !== "record" || ev.record.seq !== seq) continue;
        return ev.record.type === "frame" ? ev.record : undefined;
      }
    } catch {
      // missing or not a trace
    }
    return undefined;
  }

  /** The path of trace `id`, or undefined when the id is not a valid trace id. Does not check existence. */
  pathOf(id: string): string | undefined {
    return TRACE_ID.test(id) && !id.includes("..") ? join(this.dir, id + EXT) : undefined;
  }

  /** Every trace in the folder, newest first. */
  async list(): Promise<TraceSummary[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith(EXT));
    } catch {
      return [];
    }
    const out: TraceSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -EXT.length);
      const path = this.pathOf(id);
      if (!path) continue;
      try {
        const s = await stat(path);
        const header = await readHeader(path);
        out.push({
          id,
          bytes: s.size,
          modifiedAt: s.mtime.toISOString(),
          ...(header && { header }),
          live: this.isLive(id),
          imported: id.startsWith("imported-"),
        });
      } catch {
        // vanished between readdir and stat
      }
    }
    return out.sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt));
  }

  /**
   * Stores an uploaded trace. The first line must be a trace header this version reads; at most
   * `limit` bytes are accepted. Every later line is checked (codec and record-check.ts) and stored as
   * it came: the answer counts the valid records and the flagged lines (unreadable or invalid) and
   * says what is wrong with the first one. Returns that, or an error for the user.
   */
  async importTrace(body: AsyncIterable<Buffer>, limit: number): Promise<ImportedTrace | { error: string }> {
    const id = `imported-${stamp(new Date())}-${randomBytes(4).toString("hex")}`;
    const final = join(this.dir, id + EXT);
    const tmp = `${final}.part`;
    const fh = await open(tmp, "wx", 0o600);
    let total = 0;
    let head = "";
    let headerChecked = false;
    const check = new ImportCheck();
    try {
      for await (const chunk of body) {
        check.take(chunk);
        total += chunk.length;
        if (total > limit) throw new ImportError(`trace larger than ${limit} bytes`);
        if (!headerChecked) {
          head += chunk.toString("utf8");
          const nl = head.indexOf("\n");
          if (nl === -1 && head.length > 1 << 20) throw new ImportError("first line longer than 1 MiB");
          if (nl !== -1) {
            const d = decodeHeader(head.slice(0, nl));
            if (d.kind !== "header") throw new ImportError(d.kind === "problem" ? d.message : "no header");
            headerChecked = true;
          }
        }
        await fh.write(chunk);
      }
      if (!headerChecked) {
        const d = decodeHeader(head);
        if (d.kind !== "header") throw new ImportError(d.kind === "problem" ? d.message : "empty upload");
      }
      await fh.close();
      await rename(tmp, final);
      return { id, ...check.finish() };
    } catch (err) {
      await fh.close().catch(() => {});
      await rm(tmp, { force: true });
      if (err instanceof ImportError) return { error: err.message };
      throw err;
    }
  }
}

class ImportError extends Error {}

/** What `importTrace` found in a stored upload. */
export interface ImportedTrace {
  readonly id: string;
  /** Valid records. */
  readonly records: number;
  /** Lines kept but flagged: unreadable, or a record with a wrong field. */
  readonly flagged: number;
  /** What is wrong with the first flagged line (`line 7: invalid frame record seq 5: raw must be ...`). */
  readonly firstFlagged?: string;
}

/** Checks an upload's lines as they stream by (the header line is checked by `importTrace`). */
class ImportCheck {
  /** The pieces of a line that began in an earlier chunk: joined once, when its newline comes (linear). */
  private readonly lines = new LineCutter();
  private line = 0;
  private records = 0;
  private flagged = 0;
  private first: string | undefined;
  private readonly decoder = new TextDecoder();

  take(chunk: Buffer): void {
    for (const line of this.lines.push(this.decoder.decode(chunk, { stream: true }))) this.check(line);
  }

  finish(): Omit<ImportedTrace, "id"> {
    for (const line of this.lines.push(this.decoder.decode())) this.check(line);
    this.check(this.lines.end());
    return {
      records: this.records,
      flagged: this.flagged,
      ...(this.first !== undefined && { firstFlagged: this.first }),
    };
  }

  private check(line: string): void {
    if (++this.line === 1 || line.trim() === "") return;
    const r = parseRecordLine(line);
    if (typeof r !== "string" && !(r instanceof InvalidRecord)) {
      this.records++;
      return;
    }
    this.flagged++;
    this.first ??= `line ${this.line}: ${typeof r === "string" ? r : describeInvalid(r)}`;
  }
}

/** A batch of records as trace lines. */
export interface EncodedLines {
  /** Every line without its newline, one per record. */
  readonly lines: readonly string[];
  /** The lines joined by newlines (no newline after the last). */
  readonly text: string;
}

/**
 * The records' trace lines (what `encodeRecord` writes). Serialising the batch as one array is
 * much cheaper than one JSON.stringify per record (the tap's TraceWriter does the same): when
 * every record has the same first field `k`, every boundary between two records is `},{"k":`, so
 * turning that pattern into `}\n{"k":` gives the lines. The pattern may also occur elsewhere (where
 * a nested object starts with `k`, say), which adds a line; serialised records contain
 * no raw newline, so counting the lines proves that only boundaries were turned. Otherwise each
 * record is encoded on its own.
 */
export function encodeLines(records: readonly TraceRecord[]): EncodedLines {
  const key = records.length > 1 ? sharedFirstKey(records) : undefined;
  if (key !== undefined) {
    const k = JSON.stringify(key);
    const text = JSON.stringify(records).slice(1, -1).replaceAll(`},{${k}:`, `}\n{${k}:`);
    const lines = text.split("\n");
    if (lines.length === records.length) return { lines, text };
  }
  const lines = records.map((r) => encodeRecord(r).slice(0, -1));
  return { lines, text: lines.join("\n") };
}

/** The first field every record starts with, when they all start with the same one. */
function sharedFirstKey(records: readonly TraceRecord[]): string | undefined {
  let shared: string | undefined;
  for (const record of records) {
    let first: string | undefined;
    for (const key in record) {
      first = key;
      break;
    }
    if (first === undefined || (shared !== undefined && first !== shared)) return undefined;
    shared = first;
  }
  return shared;
}

/** Notes where the large frames of a batch about to be written start in the file, and their line lengths. */
function indexLargeFrames(trace: OpenTrace, entries: readonly unknown[], lines: readonly string[]): void {
  let offset = trace.size;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const length = Buffer.byteLength(line);
    const r = entries[i] as Partial<FrameRecord> | null;
    if (r?.type === "frame" && typeof r.raw === "string" && r.raw.length * 3 > FRAME_PREVIEW_BYTES)
      trace.largeFrames.set(r.seq as number, { offset, length });
    offset += length + 1;
  }
}

/** The seq of the last complete record line of an existing trace file, and its size; undefined when there is no file. */
function lastStoredSeq(path: string): { seq: number; endsWithNewline: boolean; size: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined;
    const len = Math.min(size, 1 << 20);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const text = buf.toString("utf8");
    const lines = text.split("\n");
    const endsWithNewline = text.endsWith("\n");
    if (!endsWithNewline) lines.pop(); // the cut last line
    for (let i = lines.length - 1; i >= 0; i--) {
      const d = decodeRecord(lines[i] as string);
      if (d.kind === "record") return { seq: d.record.seq, endsWithNewline, size };
    }
    return { seq: 0, endsWithNewline, size };
  } finally {
    closeSync(fd);
  }
}

async function readHeader(path: string): Promise<TraceHeader | undefined> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString("utf8");
    const nl = text.indexOf("\n");
    const d = decodeHeader(nl === -1 ? text : text.slice(0, nl));
    return d.kind === "header" ? d.header : undefined;
  } finally {
    await fh.close();
  }
}
