/**
 * `diff A B` of two large traces against `analyze` of one (issue 32: time ≤ 2×, memory ≤ 2×), both
 * through the real CLI (ACP_RI_CLI, or dist/cli.js) under `/usr/bin/time`: CPU seconds (user +
 * system) and peak RSS. The two traces are written by `writeBenchTrace` with the same shape and their
 * own keys, so every submission pairs by session position and prompt (the slower path, a map per
 * side). `ACP_RI_BENCH_FRAMES` sets the frames per trace (default 1M, ~300 MB each); three rounds.
 *
 * `npm run bench -- diff` (on request: it writes two traces of about 300 MB and deletes them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Bench, BenchRow } from "./bench-row.js";
import { writeBenchTrace } from "./bench-trace.js";
import { timed } from "./reader.bench.js";

const FRAMES = Number(process.env.ACP_RI_BENCH_FRAMES ?? 1_000_000);
const ROUNDS = 3;
const GOAL = 2;

/** The benchmark rows: per round, diff's CPU time and peak RSS over analyze's. */
export const diffBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-diff-bench-"));
  try {
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    const frames = await writeBenchTrace(a, FRAMES);
    await writeBenchTrace(b, FRAMES);
    const rows: BenchRow[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const analyze = timed(["analyze", a]);
      const diff = timed(["diff", a, b, "--fail-on", "never"]);
      if (analyze.status !== 0 || diff.status !== 0)
        throw new Error(
          `analyze exited ${analyze.status}, diff ${diff.status}: ${analyze.stderr} ${diff.stderr}`,
        );
      const time = diff.seconds / analyze.seconds;
      const rss = diff.rssMb / analyze.rssMb;
      rows.push(
        {
          name: `diff A B vs analyze A, ${frames} frames each, CPU time (round ${round})`,
          measured: `${diff.seconds.toFixed(1)} s (wall ${diff.wall.toFixed(1)} s)`,
          baseline: `${analyze.seconds.toFixed(1)} s (wall ${analyze.wall.toFixed(1)} s) analyze`,
          ratio: time,
          goal: `<= ${GOAL}x analyze`,
          met: time <= GOAL,
        },
        {
          name: `diff A B vs analyze A, ${frames} frames each, peak RSS (round ${round})`,
          measured: `${diff.rssMb.toFixed(0)} MB`,
          baseline: `${analyze.rssMb.toFixed(0)} MB analyze`,
          ratio: rss,
          goal: `<= ${GOAL}x analyze`,
          met: rss <= GOAL,
        },
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
