import {
  chownSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import {
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceHeader,
  type TraceRecord,
} from "../../shared/trace/record.js";
import { within } from "../tap/testing/proxy-run.js";
import { TRACE_FLUSH_MS, TraceWriter } from "./trace-writer.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const header: TraceHeader = {
  format: TRACE_FORMAT,
  version: TRACE_FORMAT_VERSION,
  tool: "test",
  startedAt: new Date(0).toISOString(),
};
const note = (seq: number, text = `note ${seq}`) => ({
  seq,
  ts: seq,
  type: "note" as const,
  level: "info" as const,
  text,
});

describe("TraceWriter", () => {
  it("writes the header, then every record in order, one JSON line each", async () => {
    const path = join(dir, "ordered.jsonl");
    const w = new TraceWriter(path, header);
    for (let i = 1; i <= 5000; i++) w.write(note(i));
    await within(w.close(), 5000, "close");
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(JSON.parse(lines[0]!)).toEqual(header);
    expect(lines.slice(1).map((l) => JSON.parse(l).seq)).toEqual(
      Array.from({ length: 5000 }, (_, i) => i + 1),
    );
  });

  it("writes exactly encodeRecord() of each record, whatever the text and however the records are batched", async () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom('},{"seq":1,"ts":2}', '"},{"seq":', '\\"},{"seq":', "a\nb\r\u2028\u0000\u001f", "€😀"),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, fc.integer({ min: 0, max: 3 })), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 5 }),
        async (items, cuts) => {
          const path = join(dir, `exact-${++run}.jsonl`);
          const w = new TraceWriter(path, header);
          const records: TraceRecord[] = items.map(([t, shape], i) =>
            shape === 0
              ? { seq: i + 1, ts: i + 0.125, type: "frame", conn: 1, dir: "agent->client", raw: t }
              : shape === 1
                ? { seq: i + 1, ts: i, type: "agent-stderr", text: t }
                : shape === 2
                  ? // Not stamped seq first: the writer must still write its own line for it.
                    ({ type: "note", seq: i + 1, ts: i, level: "info", text: t } as TraceRecord)
                  : // Nesting objects that start with seq (no record type does): still one line each.
                    ({
                      seq: i + 1,
                      ts: i,
                      type: "note",
                      level: "info",
                      text: t,
                      nested: [{ seq: 1 }, { seq: 2 }],
                    } as TraceRecord),
          );
          // commit() encodes what is queued: cut the records into batches of various sizes.
          let at = 0;
          for (const cut of cuts) {
            for (const r of records.slice(at, at + cut)) w.write(r);
            at += cut;
            w.commit();
          }
          for (const r of records.slice(at)) w.write(r);
          await within(w.close(), 5000, "close");
          expect(readFileSync(path, "utf8")).toBe(encodeHeader(header) + records.map(encodeRecord).join(""));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("writes exactly encodeRecord() of frame records, the plain ones from its template and every other shape too", async () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom(
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        '"},{"seq":',
        "a\nb\r\u2028\u0000\u001f",
        "€😀\ud800",
        // Past the 256 KiB batch, and near it once escaped: written whole, or after a flush.
        "x".repeat(300_000),
        `"${"y".repeat(90_000)}"`.repeat(2),
        "é".repeat(100_000),
      ),
    );
    const number = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(-0, 1e-7, 1e21, 2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY),
    );
    const frame = fc
      .record({
        seq: number,
        ts: number,
        conn: number,
        dir: fc.constantFrom("agent->client", "client->agent", 'a"b'),
        raw: text,
        shape: fc.integer({ min: 0, max: 4 }),
      })
      .map(({ shape, seq, ts, conn, dir, raw }) => {
        // 0 and 1: plain (the template's); 2: a flag; 3: the fields in another order; 4: an extra field.
        if (shape <= 1) return { seq, ts, type: "frame", conn, dir, raw } as TraceRecord;
        if (shape === 2)
          return { seq, ts, type: "frame", conn, dir, raw, flags: ["malformed"] } as TraceRecord;
        if (shape === 3) return { seq, ts, type: "frame", dir, conn, raw } as TraceRecord;
        return { seq, ts, type: "frame", conn, dir, raw, extra: raw } as unknown as TraceRecord;
      });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 30 })),
        async (records, cuts) => {
          const path = join(dir, `frames-${++run}.jsonl`);
          const w = new TraceWriter(path, header);
          let at = 0;
          for (const cut of cuts) {
            for (const r of records.slice(at, at + cut)) w.write(r);
            at += cut;
            w.commit();
          }
          for (const r of records.slice(at)) w.write(r);
          await within(w.close(), 5000, "close");
          expect(readFileSync(path, "utf8")).toBe(encodeHeader(header) + records.map(encodeRecord).join(""));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("has every record written so far in the file when commit() returns, and never asks for backpressure", async () => {
    const path = join(dir, "commit.jsonl");
    const w = new TraceWriter(path, header);
    expect(readFileSync(path, "utf8")).toBe(encodeHeader(header));
    const records = Array.from({ length: 3000 }, (_, i) => note(i + 1, "x".repeat(i % 300)));
    let expected = encodeHeader(header);
    for (const [i, r] of records.entries()) {
      w.write(r);
      expected += encodeRecord(r);
      if (i % 700 === 0 || i === records.length - 1) {
        w.commit();
        // Read back at once, no await: the synchronous write put the lines in the file.
        expect(readFileSync(path, "utf8")).toBe(expected);
      }
    }
    expect(w.backpressure()).toBeNull();
    await w.close();
    expect(readFileSync(path, "utf8")).toBe(expected);
  });

  it("writes records nobody commits within a few milliseconds", async () => {
    const path = join(dir, "uncommitted.jsonl");
    const w = new TraceWriter(path, header);
    w.write(note(1));
    await new Promise((resolve) => setTimeout(resolve, TRACE_FLUSH_MS * 4));
    expect(readFileSync(path, "utf8")).toBe(encodeHeader(header) + encodeRecord(note(1)));
    await w.close();
  });

  it.each([
    [
      "cannot be opened",
      () => {
        const file = join(dir, "a-file");
        writeFileSync(file, "");
        return join(file, "trace.jsonl");
      },
    ],
    ["is a device that already exists", () => "/dev/full"],
  ])("reports once when the file %s, then drops records without ever blocking", async (_, path) => {
    const errors: string[] = [];
    const w = new TraceWriter(path(), header, { onError: (m) => errors.push(m) });
    for (let i = 1; i <= 200; i++) w.write(note(i, "y".repeat(100)));
    const wait = w.backpressure();
    if (wait) await within(wait, 5000, "the failed writer to release backpressure");
    await within(w.close(), 5000, "close");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^cannot write trace file .*(ENOTDIR|it already exists)/);
    expect(w.failed).toBe(errors[0]);
    expect(w.backpressure()).toBeNull();
    w.write(note(201));
    expect(w.droppedRecords).toBeGreaterThan(0);
  });

  it("creates the file with mode 0600", async () => {
    const path = join(dir, "private.jsonl");
    const w = new TraceWriter(path, header);
    w.write(note(1));
    await w.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("never replaces an existing file: it says so and leaves the file as it was", async () => {
    const path = join(dir, "existing.jsonl");
    writeFileSync(path, "an earlier trace\n");
    const errors: string[] = [];
    const w = new TraceWriter(path, header, { onError: (m) => errors.push(m) });
    w.write(note(1));
    await within(w.close(), 5000, "close");
    expect(errors).toEqual([
      `cannot write trace file ${path}: it already exists, and an existing path is never replaced or followed (give a path that does not exist yet)`,
    ]);
    expect(readFileSync(path, "utf8")).toBe("an earlier trace\n");
  });

  it("never follows a symbolic link, not even a dangling one", async () => {
    const target = join(dir, "someone-elses-choice");
    const link = join(dir, "link.jsonl");
    symlinkSync(target, link);
    const errors: string[] = [];
    const w = new TraceWriter(link, header, { onError: (m) => errors.push(m) });
    w.write(note(1));
    await within(w.close(), 5000, "close");
    expect(errors[0]).toContain("it is a symbolic link");
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "never writes into a file another user created (run as root: chown)",
    async () => {
      const path = join(dir, "theirs.jsonl");
      writeFileSync(path, "theirs\n", { mode: 0o666 });
      chownSync(path, 65534, 65534);
      const errors: string[] = [];
      const w = new TraceWriter(path, header, { onError: (m) => errors.push(m) });
      w.write(note(1));
      await within(w.close(), 5000, "close");
      expect(errors[0]).toContain("it is a file that belongs to another user");
      expect(readFileSync(path, "utf8")).toBe("theirs\n");
    },
  );
});
