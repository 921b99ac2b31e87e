import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { encodeRecord } from "../../shared/trace/codec.js";
import type { FrameRecord } from "../../shared/trace/record.js";
import { checkRecord, isInvalidRecord } from "../../shared/trace/record-check.js";
import { previewedTrace, UiPreviews } from "./ui-previews.js";

const KEY = "key-0123456789abcdef-0123456789";
const big = (before: string) => `${"x".repeat(2_000)}${before}${"y".repeat(300_000)}`;

function script(): TraceScript {
  return new TraceScript()
    .open(1)
    .prompt(1, 1, "s1", "hello", KEY)
    .notify(1, "agent->client", "session/update", { sessionId: "s1", text: big(KEY) })
    .notify(1, "agent->client", "session/update", { sessionId: "s1", text: big("no key here") })
    .raw(1, "agent->client", Buffer.alloc(400_000, 1).toString("base64"), { encoding: "base64" });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-previews-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("UiPreviews", () => {
  it("passes small lines as they are, previews large ones, and scans an Agent frame's full bytes for the trace's keys", () => {
    const p = new UiPreviews();
    const lines = script().records.map((r) => encodeRecord(r).trimEnd());
    const out = lines.map((l) => p.lineFor(l));
    expect(out.slice(0, 2)).toEqual(lines.slice(0, 2));
    const [leak, clean, binary] = out.slice(2).map((l) => JSON.parse(l) as FrameRecord);
    expect(leak?.previewOf).toBeGreaterThan(300_000);
    expect(leak?.raw).not.toContain(KEY);
    expect(leak?.previewLeaks).toEqual([KEY]);
    expect(clean?.previewOf).toBeGreaterThan(300_000);
    expect(clean?.previewLeaks).toBeUndefined();
    expect(binary).toMatchObject({ encoding: "base64", previewOf: Math.ceil(400_000 / 3) * 4 });
    expect(binary?.previewLeaks).toBeUndefined();
    // every line it makes is a valid record
    for (const l of out) expect(isInvalidRecord(checkRecord(JSON.parse(l)))).toBe(false);
  });

  it("knows no key it has not seen in an earlier Client session/prompt", () => {
    const p = new UiPreviews();
    const leakFirst = new TraceScript()
      .notify(1, "agent->client", "session/update", { text: big(KEY) })
      .prompt(1, 1, "s1", "hello", KEY);
    const [leak] = leakFirst.records.map((r) => JSON.parse(p.lineFor(encodeRecord(r).trimEnd())));
    expect(leak.previewLeaks).toBeUndefined();
  });
});

describe("previewedTrace", () => {
  it("gives the file's lines as UIs get them and leaves out a last line still being written", async () => {
    const sc = script();
    const text = sc.jsonl();
    const partial = encodeRecord({ ...(sc.records[2] as FrameRecord), seq: 99 }).slice(0, 1_000);
    const file = join(dir, "t.jsonl");
    writeFileSync(file, text + partial);
    let got = "";
    for await (const chunk of previewedTrace(file, Buffer.byteLength(text + partial))) got += chunk;
    const lines = got.split("\n");
    expect(lines.at(-1)).toBe(""); // ends with a whole line
    expect(lines).toHaveLength(text.split("\n").length);
    const expected = new UiPreviews();
    expect(got).toBe(
      text
        .split("\n")
        .slice(0, -1)
        .map((l) => `${expected.lineFor(l)}\n`)
        .join(""),
    );
    expect(got.length).toBeLessThan(20_000);
  });
});
