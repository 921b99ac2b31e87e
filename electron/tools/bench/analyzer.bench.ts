import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import { DEFAULT_COUNT_FRAMES, TraceSchemaCheck } from "../../schema/trace-schema-check.js";
import { readTrace } from "../../trace/trace-reader.js";
import type { Bench, BenchRow } from "./bench-row.js";
import { writeBenchTrace } from "./bench-trace.js";

/** 1M frames; `ACP_RI_BENCH_FRAMES` overrides it for a quick run. */
const FRAMES = Number(process.env.ACP_RI_BENCH_FRAMES ?? 1_000_000);
const ROUNDS = 3;
const GOAL_RATIO = 2.5;
/** `analyze` checks every frame against the ACP schema by default: at most this much over the analysis alone. */
const SCHEMA_GOAL_RATIO = 1.15;

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

/** The measured path: readTrace plus the analyzer ingesting every record (and the schema check on the analyzer's parsed frame, as `analyze` runs it, when given). */
async function analyze(path: string, schema?: TraceSchemaCheck): Promise<Analyzer> {
  const analyzer = new Analyzer();
  for await (const ev of readTrace(path)) {
    if (ev.kind === "record") {
      const parsed = analyzer.ingest(ev.record);
      schema?.ingest(ev.record, parsed);
    } else if (ev.kind === "header") analyzer.ingestHeader(ev.header);
  }
  return analyzer;
}

/**
 * Wall and CPU (user + system) time of `fn`. The ratio uses CPU time: the two loops run in one process
 * one after the other, and CPU time is far less skewed than wall time by other load on a shared machine.
 */
async function timed<T>(fn: () => Promise<T>): Promise<{ wallMs: number; cpuMs: number; value: T }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, value };
}

/** Analyzer ingest of a generated 1M-frame trace vs a bare JSON.parse loop over the same file, best of ROUNDS each, interleaved. */
export const analyzerBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  try {
    const path = join(dir, "bench.trace.jsonl");
    const frames = await writeBenchTrace(path, FRAMES);
    const mb = statSync(path).size / 1e6;
    let parse = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
    let ingest = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
    let checked = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
    let listed = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
    let analyzer: Analyzer | undefined;
    let schema: TraceSchemaCheck | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const p = await timed(() => parseLoop(path));
      if (p.cpuMs < parse.cpuMs) parse = p;
      const a = await timed(() => analyze(path));
      if (a.cpuMs < ingest.cpuMs) ingest = a;
      analyzer = a.value;
      const check = new TraceSchemaCheck("count", DEFAULT_COUNT_FRAMES);
      const s = await timed(() => analyze(path, check));
      if (s.cpuMs < checked.cpuMs) checked = s;
      schema = check;
      const l = await timed(() => analyze(path, new TraceSchemaCheck("list")));
      if (l.cpuMs < listed.cpuMs) listed = l;
    }
    const model = analyzer?.model();
    const ratio = ingest.cpuMs / parse.cpuMs;
    const figure = (t: { wallMs: number; cpuMs: number }) =>
      `${(t.cpuMs / 1000).toFixed(2)} s CPU, ${(((frames / t.cpuMs) * 1000) / 1e3).toFixed(0)}k frames/s (wall ${(t.wallMs / 1000).toFixed(2)} s)`;
    const rows: BenchRow[] = [
      {
        name: `analyzer ingest (readTrace + Analyzer), ${(frames / 1e6).toFixed(2)}M frames, ${mb.toFixed(0)} MB, ${model?.submissions.length ?? 0} submissions`,
        measured: figure(ingest),
        baseline: `${figure(parse)}, read + JSON.parse loop`,
        ratio,
        goal: `<= ${GOAL_RATIO}x JSON.parse loop (CPU time, best of ${ROUNDS})`,
        met: ratio <= GOAL_RATIO,
      },
      {
        name: `analyze's default schema check (counts, first ${DEFAULT_COUNT_FRAMES} frames) on the same trace (${schema?.summary().checked ?? 0} frames checked, ${schema?.summary().framesWithViolations ?? 0} break the schema)`,
        measured: figure(checked),
        baseline: `${figure(ingest)}, readTrace + Analyzer without the check (--no-schema)`,
        ratio: checked.cpuMs / ingest.cpuMs,
        goal: `<= ${SCHEMA_GOAL_RATIO}x analysis alone (CPU time, best of ${ROUNDS})`,
        met: checked.cpuMs / ingest.cpuMs <= SCHEMA_GOAL_RATIO,
      },
      {
        name: "analyze --schema (every violation made readable, extension fields marked) on the same trace",
        measured: figure(listed),
        baseline: `${figure(ingest)}, readTrace + Analyzer without the check (--no-schema)`,
        ratio: listed.cpuMs / ingest.cpuMs,
        goal: "none: the figure that made the listing opt-in (a default over 1.15x is a count)",
        met: true,
      },
    ];
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
