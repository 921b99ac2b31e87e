import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, type TraceHeader, type TraceRecord } from "../../shared/trace/record.js";
import { readTrace, TraceReadError, type TraceReadEvent } from "./trace-reader.js";

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
async function read(path: string): Promise<TraceReadEvent[]> {
  const out: TraceReadEvent[] = [];
  for await (const ev of readTrace(path)) out.push(ev);
  return out;
}

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
});
