import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { readTrace } from "../trace/trace-reader.js";
import type { Bench, BenchRow } from "./bench-row.js";
import { writeBenchTrace } from "./bench-trace.js";

/** 1M frames; `ACP_RI_BENCH_FRAMES` overrides it for a quick run. */
const FRAMES = Number(process.env.ACP_RI_BENCH_FRAMES ?? 1_000_000);
const ROUNDS = 2;
const GOAL_RATIO = 3;

/** The baseline: read the file line by line (as readTrace does) and only JSON.parse each line. */
async function parseLoop(path: string): Promise<number> {
  let lines = 0;
  let pending = "";
  for await (const chunk of createReadStream(path, {
    encoding: "utf8",
    highWaterMark: 1 << 20,
  }) as AsyncIterable<string>) {
    pending += chunk;
    let start = 0;
    for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n", start)) {
      JSON.parse(pending.slice(start, nl));
      lines++;
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  return lines;
}

/** The measured path: readTrace plus the analyzer ingesting every record. */
async function analyze(path: string): Promise<Analyzer> {
  const analyzer = new Analyzer();
  for await (const ev of readTrace(path)) {
    if (ev.kind === "record") analyzer.ingest(ev.record);
    else if (ev.kind === "header") analyzer.ingestHeader(ev.header);
  }
  return analyzer;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Analyzer ingest of a generated 1M-frame trace vs a bare JSON.parse loop over the same file, best of ROUNDS each, interleaved. */
export const analyzerBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  try {
    const path = join(dir, "bench.trace.jsonl");
    const frames = await writeBenchTrace(path, FRAMES);
    const mb = statSync(path).size / 1e6;
    let parseMs = Number.POSITIVE_INFINITY;
    let analyzeMs = Number.POSITIVE_INFINITY;
    let analyzer: Analyzer | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      parseMs = Math.min(parseMs, (await timed(() => parseLoop(path))).ms);
      const a = await timed(() => analyze(path));
      analyzeMs = Math.min(analyzeMs, a.ms);
      analyzer = a.value;
    }
    const model = analyzer?.model();
    const ratio = analyzeMs / parseMs;
    const rate = (ms: number) => `${(((frames / ms) * 1000) / 1e3).toFixed(0)}k frames/s`;
    const rows: BenchRow[] = [
      {
        name: `analyzer ingest, ${(frames / 1e6).toFixed(2)}M frames (${mb.toFixed(0)} MB, ${model?.submissions.length ?? 0} submissions)`,
        measured: `${(analyzeMs / 1000).toFixed(2)} s (${rate(analyzeMs)})`,
        baseline: `${(parseMs / 1000).toFixed(2)} s (${rate(parseMs)}) JSON.parse loop`,
        ratio,
        goal: `<= ${GOAL_RATIO}x JSON.parse loop`,
        met: ratio <= GOAL_RATIO,
      },
    ];
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
