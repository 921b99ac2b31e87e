import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CASE_NAMES } from "../../shared/conformance/case-catalogue.js";
import type { ConformanceReport } from "../../shared/conformance/conformance-result.js";
import { summarize } from "../../shared/conformance/conformance-summary.js";
import { readTrace } from "../trace/trace-reader.js";
import { CASE_SCRIPTS } from "./cases/index.js";
import { renderJunit, xmlEscape } from "./junit-xml.js";
import { renderResultTable } from "./result-table.js";
import { tempDir } from "./testing/conformance-fixtures.js";
import { mergeConnectionTraces } from "./trace-merge.js";

const probe = { status: "v2", protocolVersion: 2, info: { name: "agent <x>", version: "1" } } as const;
const cases = [
  { name: "key-validation", status: "pass", required: true, reason: "fine" },
  { name: "retry-after-restart", status: "fail", required: true, reason: 'got "m2" & <not> m1' },
  { name: "retry-while-held", status: "skip", required: true, reason: "not applicable: fast agent" },
  { name: "different-prompt", status: "fail", required: false, reason: "inserted again" },
].map((c) => ({
  ...c,
  title: `title ${c.name}`,
  rule: "rule",
  analyzerViolations: [],
  durationMs: 1234,
  traceFile: `/t/${c.name}.jsonl`,
  outcomes: [],
}));
const report = {
  tool: "t",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 5000,
  target: { kind: "stdio", command: ["agent"], cwd: "/" },
  tracesDir: "/t",
  probe,
  cases,
  summary: summarize(probe, cases as never),
} as ConformanceReport;

describe("reports", () => {
  test("JUnit: required failures fail, skips and informative failures are skipped, text is escaped", () => {
    const xml = renderJunit(report);
    expect(xml).toContain('tests="4" failures="1"');
    expect(xml).toContain('skipped="2"');
    expect(xml).toContain('<failure message="got &quot;m2&quot; &amp; &lt;not&gt; m1"/>');
    expect(xml).toContain('<skipped message="informative case failed: inserted again"/>');
    expect(xml).not.toMatch(/<not>/);
    expect(xmlEscape("a\u0001b")).toBe("a\uFFFDb");
  });

  test("the table has one row per case with result, reason and trace, then the verdict", () => {
    const text = renderResultTable(report);
    expect(text).toMatch(/retry-after-restart\s+FAIL\s+got "m2" & <not> m1\s+\/t\/retry-after-restart.jsonl/);
    expect(text).toMatch(/different-prompt\s+fail \(info\)/);
    expect(text).toContain("1 passed, 2 failed (1 required), 1 skipped in 5.0 s: NOT CONFORMANT");
  });

  test("every catalogued case has a script and a section in docs/conformance.md", () => {
    const docs = readFileSync(new URL("../../docs/conformance.md", import.meta.url), "utf8");
    for (const name of CASE_NAMES) {
      expect(CASE_SCRIPTS[name].name).toBe(name);
      expect(docs).toContain(`### \`${name}\``);
    }
  });
});

describe("mergeConnectionTraces", () => {
  test("numbers connections by file, interleaves by time, keeps frame bytes, renumbers seq", async () => {
    const dir = tempDir("merge");
    const header =
      '{"format":"acp-retry-inspector-trace","version":1,"tool":"t","startedAt":"x","transport":"stdio"}';
    const frame = (seq: number, ts: number, raw: string) =>
      JSON.stringify({ seq, ts, type: "frame", conn: 1, dir: "client->agent", raw });
    writeFileSync(
      join(dir, "a.jsonl"),
      `${[header, frame(1, 10, '{"a":1}'), frame(2, 30, " {\\u0041} ")].join("\n")}\n`,
    );
    writeFileSync(join(dir, "b.jsonl"), [header, frame(1, 20, "x\r"), '{"seq":2,"ts":2'].join("\n"));
    const out = join(dir, "case.jsonl");
    await mergeConnectionTraces(
      [join(dir, "a.jsonl"), join(dir, "b.jsonl"), join(dir, "missing.jsonl")],
      out,
      JSON.parse(header),
    );
    const records = [];
    for await (const ev of readTrace(out)) if (ev.kind === "record") records.push(ev.record);
    const frames = records.filter((r) => r.type === "frame");
    expect(frames.map((r) => [r.seq, r.conn, r.raw])).toEqual([
      [3, 1, '{"a":1}'],
      [4, 2, "x\r"],
      [5, 1, " {\\u0041} "],
    ]);
    const notes = records.filter((r) => r.type === "note").map((r) => (r.type === "note" ? r.text : ""));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^connection #2 trace line 3/);
    expect(notes[1]).toMatch(/^connection #3 has no trace/);
  });
});
