import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { writeBenchTrace } from "../../../electron/tools/bench/bench-trace.js";
import { TraceScript } from "../../../shared/analyzer/trace-script.js";
import { importTraceFile, importTraceText } from "../import-trace.js";
import { channelAnalysis, fileOf, imported } from "../testing/import-harness.js";

beforeEach(() => {
  vi.stubGlobal("requestAnimationFrame", (cb: () => void) => setTimeout(cb, 0));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Non-ASCII cut by chunks, an unreadable line, an invalid record, blank lines and a repeated seq. */
const tricky = (() => {
  const sc = new TraceScript()
    .open(1)
    .prompt(1, 1, "sess-é", "naïve prompt 🙂 with ünïcode", "K1")
    .inserted(1, 1, "m1")
    .prompt(1, 2, "sess-é", "another 🙂", "K2");
  const [last] = sc.records.slice(-1);
  return `${sc.jsonl()}not json at all\n\n{"type":"frame","seq":99,"ts":1,"conn":1}\n${JSON.stringify(last)}\n\n`;
})();

describe("an import analysed in a worker", () => {
  let dir = "";
  let bench = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "acp-ri-worker-analysis-"));
    const file = join(dir, "bench.jsonl");
    await writeBenchTrace(file, 20_000);
    bench = readFileSync(file, "utf8");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("shows the rows, counts and flagged lines of the same import analysed in the window, wherever the chunks cut", async () => {
    for (const [name, text, cuts] of [
      ["bench.jsonl", bench, [4_096, 1 << 16]],
      ["tricky.jsonl", tricky, [1, 7, 1 << 16]],
    ] as const) {
      const here = await imported((ctx) => importTraceFile(ctx, fileOf(name, text, 1 << 16)));
      expect(here.view.submissions.length).toBeGreaterThan(name === "bench.jsonl" ? 500 : 1);
      for (const every of cuts) {
        const started = { count: 0 };
        const there = await imported(
          (ctx) => importTraceFile(ctx, fileOf(name, text, every)),
          channelAnalysis(started),
        );
        expect(started.count).toBe(1);
        expect(there.analysedHereBecause).toBeUndefined();
        expect(there).toEqual(here);
      }
    }
  });

  it("gets a converted or whole-text import's lines as text, with the same rows", async () => {
    const here = await imported((ctx) => importTraceText(ctx, "tricky.jsonl", tricky));
    const started = { count: 0 };
    const there = await imported(
      (ctx) => importTraceText(ctx, "tricky.jsonl", tricky),
      channelAnalysis(started),
    );
    expect(started.count).toBe(1);
    expect(there.analysedHereBecause).toBeUndefined();
    expect(there).toEqual(here);
  });

  it("falls back to the window, with the same rows, when the worker cannot account for the window's records", async () => {
    // The last line has no newline after it, and the worker never hears that the file ended: it never gets that line.
    const text = bench.trimEnd();
    const here = await imported((ctx) => importTraceFile(ctx, fileOf("bench.jsonl", text, 1 << 16)));
    const there = await imported(
      (ctx) => importTraceFile(ctx, fileOf("bench.jsonl", text, 1 << 16)),
      channelAnalysis({ count: 0 }, (m) => m.t === "end"),
    );
    expect(there.analysedHereBecause).toMatch(/the worker decoded \d+ entries of the lines, the window \d+/);
    expect({ ...there, analysedHereBecause: undefined }).toEqual(here);
  });
});
