import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, type TraceRecord } from "../../shared/trace/record.js";
import { encodeLines, TraceStore } from "./trace-store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header = {
  format: TRACE_FORMAT,
  version: 1,
  tool: "t",
  startedAt: "2026-02-03T04:05:06.789Z",
} as const;
const note = (seq: number): TraceRecord => ({ type: "note", seq, ts: seq, level: "info", text: `n${seq}` });
const stored = (store: TraceStore, records: TraceRecord[], tapId: string) =>
  new Promise<number>((resolve) => store.attach(tapId, header).append(records, resolve));

describe("TraceStore", () => {
  it("names a trace after the tap's start and id, skips resent seqs, and acks after the write", async () => {
    const store = new TraceStore(dir);
    await store.init();
    expect(await stored(store, [note(1), note(2)], "abcdef123456789")).toBe(2);
    expect(await stored(store, [note(2), note(3)], "abcdef123456789")).toBe(3);
    await store.close();
    const text = readFileSync(join(dir, "20260203T040506Z-abcdef123456.jsonl"), "utf8");
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).seq),
    ).toEqual([undefined, 1, 2, 3]);
  });

  it("continues an existing file after its last complete record, isolating a cut line", async () => {
    const path = join(dir, "20260203T040506Z-abcdef123456.jsonl");
    writeFileSync(
      path,
      `${JSON.stringify(header)}\n${JSON.stringify(note(1))}\n${JSON.stringify(note(2))}\n{"type":"no`,
    );
    const store = new TraceStore(dir);
    const trace = store.attach("abcdef123456789", header);
    expect(trace.lastSeq).toBe(2);
    await new Promise((resolve) => trace.append([note(2), note(3)], resolve));
    await store.close();
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[3]).toBe('{"type":"no');
    expect(JSON.parse(lines[4] as string).seq).toBe(3);
  });

  it("writes down a hole in the seqs as a gap note in its last seq: which seqs, how many, why", async () => {
    const store = new TraceStore(dir);
    const trace = store.attach("abcdef123456789", header);
    await new Promise((resolve) => trace.append([note(1), note(2)], resolve));
    // seqs 3-4 never came, and the tap did not say why; then it says it dropped 3, and 8-10 are missing
    const a = trace.append([note(5), note(6)]);
    expect(a.records.map((r) => r.seq)).toEqual([4, 5, 6]);
    await new Promise((resolve) => trace.append([note(7), note(11)], resolve, 3));
    await store.close();
    const records = readFileSync(join(dir, "20260203T040506Z-abcdef123456.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.seq)).toEqual([1, 2, 4, 5, 6, 7, 10, 11]);
    expect(records[2]).toMatchObject({
      type: "note",
      level: "warn",
      ts: 5,
      gap: { from: 3, to: 4, missing: 2, reason: "not-received" },
    });
    expect(records[2].text).toContain("2 record(s) missing, seqs 3-4: the hub never received them");
    expect(records[6]).toMatchObject({ gap: { from: 8, to: 10, missing: 3, reason: "tap-dropped" } });
    expect(records[6].text).toContain("the tap's hub link dropped them");
  });

  it("writes exactly encodeRecord's lines and hands back the same lines and bytes", async () => {
    const store = new TraceStore(dir);
    await store.init();
    const trace = store.attach("abcdef123456789", header);
    const records = [note(1), { ...note(2), text: 'é 🙂 \u2028 \ud800 "q"\nx' }, note(3)] as TraceRecord[];
    let stored: ReturnType<typeof trace.append> | undefined;
    await new Promise((resolve) => {
      stored = trace.append(records, resolve);
    });
    await store.close();
    const lines = records.map((r) => encodeRecord(r).slice(0, -1));
    expect(stored?.lines).toEqual(lines);
    expect(stored?.bytes.toString("utf8")).toBe(lines.join("\n"));
    expect(readFileSync(join(dir, "20260203T040506Z-abcdef123456.jsonl"), "utf8")).toBe(
      `${JSON.stringify(header)}\n${records.map(encodeRecord).join("")}`,
    );
  });

  it("rejects trace ids that could leave the folder", () => {
    const store = new TraceStore(dir);
    for (const bad of ["../x", "..", "a/b", "", ".hidden", "a\\\\b"])
      expect(store.pathOf(bad)).toBeUndefined();
    expect(store.pathOf("20260203T040506Z-abc")).toBe(join(dir, "20260203T040506Z-abc.jsonl"));
  });
});

describe("encodeLines", () => {
  const oneByOne = (records: TraceRecord[]) => {
    const lines = records.map((r) => encodeRecord(r).slice(0, -1));
    return { lines, text: lines.join("\n") };
  };

  it("gives each record's own trace line, also for strings that look like a record boundary", () => {
    const tricky = [
      '},{"seq":7,"x":1',
      '"},{"seq":',
      "line\nbreak",
      "\u2028 \ud800 é 🙂",
      '},{"type":"frame"',
    ];
    const seqFirst = tricky.map(
      (raw, i): TraceRecord => ({ seq: i + 1, ts: i, type: "frame", conn: 1, dir: "client->agent", raw }),
    );
    expect(encodeLines(seqFirst)).toEqual(oneByOne(seqFirst));
    const typeFirst = tricky.map(
      (raw, i): TraceRecord => ({
        type: "frame",
        seq: i + 1,
        ts: i,
        conn: 1,
        dir: "agent->client",
        raw,
      }),
    );
    expect(encodeLines(typeFirst)).toEqual(oneByOne(typeFirst));
  });

  it("falls back to one record at a time when a nested object starts like a record", () => {
    const nested = [
      { seq: 1, ts: 1, type: "note", level: "info", text: "a", extra: [{ seq: 9 }, { seq: 10 }] },
      { seq: 2, ts: 2, type: "note", level: "info", text: "b" },
    ] as unknown as TraceRecord[];
    expect(encodeLines(nested)).toEqual(oneByOne(nested));
    expect(encodeLines(nested).lines[0]).toContain('[{"seq":9},{"seq":10}]');
  });

  it("matches encodeRecord for any records, whatever their field order (property)", () => {
    const value = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.jsonValue({ maxDepth: 1 }),
    );
    const record = fc
      .tuple(
        fc.nat(),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("seq", "type", "0", "12")), value, {
          maxKeys: 4,
        }),
        fc.boolean(),
      )
      .map(([seq, extra, seqFirst]) =>
        seqFirst ? { seq, type: "note", ...extra } : { type: "note", ...extra, seq },
      );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), (records) => {
        const rs = records as unknown as TraceRecord[];
        expect(encodeLines(rs)).toEqual(oneByOne(rs));
      }),
    );
  });
});

describe("TraceStore checks what it is given", () => {
  it("stores a tap's invalid records as they came, returns them apart, and never moves lastSeq for a bad seq", async () => {
    const store = new TraceStore(dir);
    await store.init();
    const trace = store.attach("checkcheck1234", header);
    const bad = { type: "frame", seq: 2, ts: 2, conn: 1, dir: "client->agent", raw: 42 };
    const noSeq = { type: "note", seq: "x", ts: 3, level: "info", text: "no seq" };
    const out = trace.append([note(1), bad, noSeq, 17, note(3)]);
    expect(out.records.map((r) => r.seq)).toEqual([1, 3]);
    expect(out.invalid.map((e) => [e.seq, e.faults[0]?.field])).toEqual([
      [2, "raw"],
      [null, "seq"],
      [null, "record"],
    ]);
    expect(out.lines).toEqual([note(1), bad, noSeq, 17, note(3)].map((v) => JSON.stringify(v)));
    expect(trace.lastSeq).toBe(3);
    // a resend of the invalid record with a valid seq is skipped like any resend
    expect(trace.append([bad]).lines).toEqual([]);
  });

  it("counts an import's valid records and flagged lines, and says what is wrong with the first", async () => {
    const store = new TraceStore(dir);
    await store.init();
    const text = [
      JSON.stringify(header),
      encodeRecord(note(1)).trimEnd(),
      JSON.stringify({ type: "frame", seq: 2, ts: 2, conn: 1, dir: "client->agent", raw: 42 }),
      "not json",
      encodeRecord(note(4)).trimEnd(),
    ].join("\n");
    const body = (async function* () {
      // split inside a line, so the check works across chunks
      yield Buffer.from(text.slice(0, 150));
      yield Buffer.from(text.slice(150));
    })();
    const r = await store.importTrace(body, 1 << 20);
    expect(r).toMatchObject({
      records: 2,
      flagged: 2,
      firstFlagged: "line 3: invalid frame record seq 2: raw must be a string, got number",
    });
    // stored as it came: nothing lost
    expect(readFileSync(join(dir, `${(r as { id: string }).id}.jsonl`), "utf8")).toBe(text);
  });
});

describe("TraceStore.readFrame", () => {
  it("reads a large frame straight from its place in the file (multi-byte text before it), a small one by reading through", async () => {
    const store = new TraceStore(dir);
    await store.init();
    const trace = store.attach("framesframes12", header);
    const big: TraceRecord = {
      type: "frame",
      seq: 3,
      ts: 3,
      conn: 1,
      dir: "agent->client",
      raw: `"${"ü€".repeat(200_000)}"`,
    };
    const small: TraceRecord = { type: "frame", seq: 4, ts: 4, conn: 1, dir: "client->agent", raw: "{}" };
    await new Promise((resolve) => trace.append([{ ...note(1), text: "é😀".repeat(50) }, note(2)], resolve));
    await new Promise((resolve) => trace.append([big, small], resolve));
    expect(await store.readFrame(trace.traceId, 3)).toEqual(big);
    expect(await store.readFrame(trace.traceId, 4)).toEqual(small);
    expect(await store.readFrame(trace.traceId, 1)).toBeUndefined(); // a note, not a frame
    // spoil the header: reading through fails now, so only the index can still find the large frame
    const path = join(dir, `${trace.traceId}.jsonl`);
    const text = readFileSync(path, "utf8");
    const nl = text.indexOf("\n");
    writeFileSync(path, "x".repeat(nl) + text.slice(nl));
    expect(await store.readFrame(trace.traceId, 3)).toEqual(big);
    expect(await store.readFrame(trace.traceId, 4)).toBeUndefined();
    await store.close();
  });
});
