/**
 * Holds `analyze` output byte-identical across analyzer rewrites: the CLI's text report and `--json`
 * of two generated traces (the bench's shape, and a mix of every scenario with unreadable lines),
 * plus the `takeChanges()` stream a UI sees, are compared with goldens recorded from earlier code.
 * `ACP_RI_WRITE_GOLDEN=1` records them again; only do that for an intended change of output.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { mixedTrace } from "../../shared/analyzer/testing/mixed-trace.js";
import { writeBenchTrace } from "../tools/bench/bench-trace.js";
import { cliPath } from "../tools/testing/cli.js";
import { readTrace } from "./trace-reader.js";

// The bench trace keys its prompts with randomUUID: make them the same on every run.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  let n = 0;
  const uuid = () => {
    n++;
    const h = (Math.imul(n, 2654435761) >>> 0).toString(16).padStart(8, "0");
    return `${h}-${(n & 0xffff).toString(16).padStart(4, "0")}-4${h.slice(0, 3)}-8${h.slice(5)}-${n.toString(16).padStart(12, "0")}`;
  };
  return { ...actual, default: { ...actual, randomUUID: uuid }, randomUUID: uuid };
});

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), "golden");
const WRITE = process.env.ACP_RI_WRITE_GOLDEN === "1";
const dir = mkdtempSync(join(tmpdir(), "acp-ri-golden-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UNREADABLE = [
  "not json at all",
  '{"type":"bogus","seq":1,"ts":1}',
  '{"type":"frame","seq":"x","ts":1}',
  "[]",
  "null",
];

/** The mixed trace as a file, with unreadable lines between records and a half-written last line. */
function writeMixedTrace(path: string): void {
  const lines = mixedTrace(4_000, 7).jsonl().split("\n");
  lines.pop();
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    if (i > 0 && i % 997 === 0) out.push(UNREADABLE[(i / 997) % UNREADABLE.length] as string);
  });
  writeFileSync(path, `${out.join("\n")}\n{"type":"frame","seq":99999999,"ts":1,"conn":1,"di`);
}

/** Compares with the golden `name` (gzipped), failing on the first differing line; records it when asked. */
function expectGolden(name: string, actual: string): void {
  const path = join(GOLDEN_DIR, `${name}.gz`);
  if (WRITE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, gzipSync(actual, { level: 9 }));
    return;
  }
  expect(existsSync(path), `golden ${name} is missing`).toBe(true);
  const golden = gunzipSync(readFileSync(path)).toString("utf8");
  const a = actual.split("\n");
  const g = golden.split("\n");
  const at = a.findIndex((line, i) => line !== g[i]);
  if (at !== -1) expect(a[at], `${name}: first difference at line ${at + 1}`).toBe(g[at]);
  expect(a.length, `${name}: line count`).toBe(g.length);
  expect(actual === golden, `${name}: byte-identical`).toBe(true);
}

/** `analyze` without its default schema check (the goldens pin the analyzer's output; the check has its own tests). */
function analyze(file: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [cliPath(), "analyze", "--no-schema", ...args, file], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 1 << 30,
  });
  return `exit ${r.status}\nstderr ${JSON.stringify(r.stderr)}\n${r.stdout}`;
}

describe("analyze output stays byte-identical", () => {
  it("on the bench's trace (30k frames): text report and --json", async () => {
    const frames = await writeBenchTrace(join(dir, "bench.trace.jsonl"), 30_000);
    expect(frames).toBeGreaterThanOrEqual(30_000);
    expectGolden("bench-30k.txt", analyze("bench.trace.jsonl"));
    expectGolden("bench-30k.json", analyze("bench.trace.jsonl", "--json"));
  });

  it("on a trace mixing every scenario, with unreadable lines: text report and --json", () => {
    writeMixedTrace(join(dir, "mixed.trace.jsonl"));
    expectGolden("mixed.txt", analyze("mixed.trace.jsonl"));
    expectGolden("mixed.json", analyze("mixed.trace.jsonl", "--json"));
  });

  it("in the changes a live UI takes while the mixed trace streams in", async () => {
    const path = join(dir, "mixed-live.trace.jsonl");
    writeMixedTrace(path);
    const analyzer = new Analyzer();
    const taken: string[] = [];
    let n = 0;
    for await (const ev of readTrace(path)) {
      if (ev.kind === "record") analyzer.ingest(ev.record);
      else if (ev.kind === "header") analyzer.ingestHeader(ev.header);
      else analyzer.ingestProblem({ line: ev.line, message: ev.message, truncated: ev.truncated });
      if (++n % 61 === 0) taken.push(JSON.stringify(analyzer.takeChanges()));
    }
    taken.push(JSON.stringify(analyzer.takeChanges()));
    taken.push(`hasViolations ${analyzer.hasViolations()}`);
    expectGolden("mixed-changes.jsonl", `${taken.join("\n")}\n`);
  });
});
