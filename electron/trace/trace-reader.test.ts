import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, type TraceHeader, type TraceRecord } from "../../shared/trace/record.js";
import { MAX_LINE_BYTES, readTrace, TraceReadError, type TraceReadEvent } from "./trace-reader.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-reader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const header: TraceHeader = {
  format: TRACE_FORMAT,
  version: 1,
  tool: "test",
  startedAt: "2026-01-01T00:00:00.000Z",
};
const frame = (seq: number, raw = `{"jsonrpc":"2.0","method":"m${seq}"}`): TraceRecord => ({
  seq,
  ts: 1000 + seq,
  type: "frame",
  conn: 1,
  dir: "client->agent",
  raw,
});
let n = 0;
function file(text: string): string {
  const path = join(dir, `f${++n}.jsonl`);
  writeFileSync(path, text);
  return path;
}
async function read(path: string, maxLineBytes?: number): Promise<TraceReadEvent[]> {
  const out: TraceReadEvent[] = [];
  for await (const ev of readTrace(path, maxLineBytes !== undefined ? { maxLineBytes } : {})) out.push(ev);
  return out;
}
/** What each event is, in a word: `record 3`, `problem 4 oversize 5000`, ... */
const shape = (e: TraceReadEvent) =>
  e.kind === "record"
    ? `record ${e.record.seq}`
    : e.kind === "problem"
      ? `problem ${e.line}${e.oversize !== undefined ? ` oversize ${e.oversize}` : ""}${e.truncated ? " truncated" : ""}`
      : e.kind;

describe("readTrace", () => {
  it("reads only the first `bytes` when asked, so two passes over a growing trace see the same lines", async () => {
    const head = encodeHeader(header) + encodeRecord(frame(1));
    const path = file(head + encodeRecord(frame(2)));
    const events: TraceReadEvent[] = [];
    for await (const ev of readTrace(path, { bytes: head.length + 5 })) events.push(ev);
    expect(events.map((e) => e.kind)).toEqual(["header", "record", "problem"]);
    expect(events[2]).toMatchObject({ line: 3, truncated: true });
  });

  it("reads the header and every record in order", async () => {
    const events = await read(
      file(encodeHeader(header) + encodeRecord(frame(1)) + encodeRecord(frame(2, "ü\n€"))),
    );
    expect(events).toEqual([
      { kind: "header", header },
      { kind: "record", record: frame(1), line: 2 },
      { kind: "record", record: frame(2, "ü\n€"), line: 3 },
    ]);
  });

  it("reports a truncated last line and keeps everything before it", async () => {
    const events = await read(
      file(`${encodeHeader(header)}${encodeRecord(frame(1))}{"seq":2,"ts":1,"type":"fr`),
    );
    expect(events.map((e) => e.kind)).toEqual(["header", "record", "problem"]);
    expect(events[2]).toMatchObject({ kind: "problem", line: 3, truncated: true });
  });

  it("reports bad lines in the middle without stopping", async () => {
    const text = [
      encodeHeader(header),
      "not json\n",
      '{"type":"nonsense","seq":1,"ts":1}\n',
      '{"type":"frame"}\n',
      encodeRecord(frame(4)),
    ].join("");
    const events = await read(file(text));
    expect(events.map((e) => (e.kind === "problem" ? `problem ${e.line} ${e.truncated}` : e.kind))).toEqual([
      "header",
      "problem 2 false",
      "problem 3 false",
      "problem 4 false",
      "record",
    ]);
  });

  it("throws TraceReadError for a missing file, an empty file and a file that is not a trace", async () => {
    await expect(read(join(dir, "missing.jsonl"))).rejects.toThrow(TraceReadError);
    await expect(read(join(dir, "missing.jsonl"))).rejects.toThrow(/ENOENT/);
    await expect(read(file(""))).rejects.toThrow(/empty/);
    await expect(read(file('{"hello":"world"}\n'))).rejects.toThrow(/not a trace file/);
    await expect(read(file("just text\n"))).rejects.toThrow(/not a trace file/);
    await expect(read(file(encodeHeader({ ...header, version: 99 })))).rejects.toThrow(/newer/);
  });

  it("stops cleanly when the reader leaves early, and reports a directory as unreadable", async () => {
    const it = readTrace(file(encodeHeader(header) + encodeRecord(frame(1)) + encodeRecord(frame(2))));
    expect((await it.next()).value).toEqual({ kind: "header", header });
    expect(await it.return?.()).toEqual({ value: undefined, done: true });
    expect(await it.next()).toEqual({ value: undefined, done: true });
    await expect(read(dir)).rejects.toThrow(TraceReadError);
    await expect(read(dir)).rejects.toThrow(/cannot read trace file/);
  });

  it("reads a file without a final newline, and a header-only file", async () => {
    const noNewline = `${encodeHeader(header)}${encodeRecord(frame(1)).trimEnd()}`;
    expect((await read(file(noNewline))).map((e) => e.kind)).toEqual(["header", "record"]);
    expect(await read(file(encodeHeader(header)))).toEqual([{ kind: "header", header }]);
    expect(await read(file(encodeHeader(header).trimEnd()))).toEqual([{ kind: "header", header }]);
  });

  it("streams a large file (about 100 MB, with multi-megabyte records) with bounded memory", async () => {
    const path = join(dir, "large.jsonl");
    const out = createWriteStream(path);
    out.write(encodeHeader(header));
    const big = `{"jsonrpc":"2.0","method":"big","params":"${"é".repeat(2_000_000)}"}`;
    let seq = 0;
    for (let block = 0; block < 20; block++) {
      const lines: string[] = [];
      for (let i = 0; i < 10_000; i++) lines.push(encodeRecord(frame(++seq)));
      lines.push(encodeRecord(frame(++seq, big)));
      if (!out.write(lines.join(""))) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));

    const before = process.memoryUsage().rss;
    let records = 0;
    let bigSeen = 0;
    let peak = 0;
    for await (const ev of readTrace(path)) {
      if (ev.kind !== "record") continue;
      records++;
      if (ev.record.type === "frame" && ev.record.raw.length > 1000) {
        bigSeen++;
        expect(ev.record.raw).toBe(big);
      }
      if (records % 20_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(records).toBe(seq);
    expect(bigSeen).toBe(20);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);

  it("reads a 30 MB record line whole and exact, multi-byte text across chunk boundaries included", async () => {
    // 1 MiB chunks: a three-byte character on every boundary of some chunk, and a line spanning 30 of them
    const big = `{"jsonrpc":"2.0","id":1,"result":{"text":"${"a€é".repeat(5_000_000)}"}}`;
    const events = await read(
      file(
        encodeHeader(header) + encodeRecord(frame(1)) + encodeRecord(frame(2, big)) + encodeRecord(frame(3)),
      ),
    );
    expect(events.map(shape)).toEqual(["header", "record 1", "record 2", "record 3"]);
    const r = events[2] as Extract<TraceReadEvent, { kind: "record" }>;
    expect(r.line).toBe(3);
    expect(r.record.type === "frame" && r.record.raw === big).toBe(true);
  }, 60_000);

  it("reports a line over the cap as oversize by its line number and byte length, skips it and reads on", async () => {
    const cap = 4096;
    const within = encodeRecord(frame(2, `"${"x".repeat(cap - 200)}"`)); // under the cap, read
    const spanning = encodeRecord(frame(3, `"${"€".repeat(1_500_000)}"`)); // 4.5 MB, over many chunks
    const inChunk = encodeRecord(frame(5, `"${"y".repeat(cap * 2)}"`)); // over the cap inside one chunk
    const truncatedLast = `{"seq":7,"ts":1,"type":"frame","raw":"${"z".repeat(3_000_000)}`;
    const text = [
      encodeHeader(header),
      encodeRecord(frame(1)),
      within,
      spanning,
      encodeRecord(frame(4)),
      inChunk,
      encodeRecord(frame(6)),
      truncatedLast,
    ].join("");
    const bytes = (line: string) => Buffer.byteLength(line) - 1; // without its newline
    const events = await read(file(text), cap);
    expect(events.map(shape)).toEqual([
      "header",
      "record 1",
      "record 2",
      `problem 4 oversize ${bytes(spanning)}`,
      "record 4",
      `problem 6 oversize ${bytes(inChunk)}`,
      "record 6",
      `problem 8 oversize ${Buffer.byteLength(truncatedLast)} truncated`,
    ]);
    expect((events[3] as { message: string }).message).toMatch(/over the reader's 4096-byte cap: skipped/);
    // a line of exactly the cap is read
    const exact = encodeRecord(frame(2));
    expect((await read(file(encodeHeader(header) + exact), bytes(exact))).map(shape)).toEqual([
      "header",
      "record 2",
    ]);
    expect((await read(file(encodeHeader(header) + exact), bytes(exact) - 1)).map(shape)).toEqual([
      "header",
      `problem 2 oversize ${bytes(exact)}`,
    ]);
  });

  it("reads long lines from a pipe (which cannot be read again by offset) as it reads them from a file", async () => {
    // 10.8 MB: over the 8 MiB a file's line keeps in pieces before it is read again by offset instead
    const big = `{"jsonrpc":"2.0","id":1,"result":{"text":"${"a€é".repeat(1_800_000)}"}}`;
    const text = [
      encodeHeader(header),
      encodeRecord(frame(1)),
      encodeRecord(frame(2, big)),
      encodeRecord(frame(3)),
      `{"seq":4,"ts":1,"type":"frame","raw":"${"z".repeat(1_500_000)}`,
    ].join("");
    const fifo = join(dir, `p${++n}.fifo`);
    execFileSync("mkfifo", [fifo]);
    const writer = createWriteStream(fifo);
    writer.end(text);
    const fromPipe = await read(fifo);
    const fromFile = await read(file(text));
    expect(fromPipe.map(shape)).toEqual([
      "header",
      "record 1",
      "record 2",
      "record 3",
      "problem 5 truncated",
    ]);
    expect(fromPipe).toEqual(fromFile);
    const r = fromPipe[2] as Extract<TraceReadEvent, { kind: "record" }>;
    expect(r.record.type === "frame" && r.record.raw === big).toBe(true);
  }, 60_000);

  it("refuses a file whose first line is over the cap, and states the cap", async () => {
    expect(MAX_LINE_BYTES).toBe(256 * 1024 * 1024);
    await expect(read(file(`${"x".repeat(5000)}\n`), 1000)).rejects.toThrow(
      /first line of 5000 bytes is over/,
    );
  });
});
