import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStress } from "../../conformance/stress/run-stress.js";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../build/build-cli.mjs";
import type { Bench, BenchRow } from "./bench-row.js";

/*
 * The stress mode's benchmark (issue 14): 200 seeded stress schedules against the correct demo
 * agent (`--turn-ms 50`), each through its own tap, at the CLI's default concurrency. Goal: all
 * 200 pass within 3 minutes on a 2-core machine. Set ACP_RI_CLI to an already built cli.js to skip
 * the build; STRESS_BENCH_RUNS changes the count, STRESS_BENCH_SEED the seed.
 */

const RUNS = Number(process.env.STRESS_BENCH_RUNS ?? 200);
const SEED = Number(process.env.STRESS_BENCH_SEED ?? 20261201);
const GOAL_S = 180;

/** `npm run bench -- stress`. */
export const stressBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-stress-bench-"));
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(join(dir, "cli")));
    const agentCommand = [
      process.execPath,
      cli,
      "demo-agent",
      "--store",
      join(dir, "store"),
      "--turn-ms",
      "50",
    ];
    const started = performance.now();
    const report = await runStress(
      {
        agentCommand,
        cliCommand: [process.execPath, cli],
        runs: RUNS,
        seed: SEED,
        tracesDir: join(dir, "traces"),
      },
      (event) => {
        if (event.kind === "run-end" && event.done % 20 === 0)
          process.stderr.write(
            `stress bench: ${event.done}/${event.total} runs, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
          );
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const rows: BenchRow[] = [
      {
        name: `conformance --stress ${RUNS} on demo-agent (seed ${SEED}), wall time`,
        measured: `${seconds.toFixed(1)} s (${report.summary.passed} passed, ${report.summary.failed} failed)`,
        baseline: "",
        ratio: seconds,
        goal: `<= ${GOAL_S} s, every run passes`,
        met: seconds <= GOAL_S && report.summary.ok,
      },
    ];
    for (const r of report.runs.filter((x) => x.status === "fail").slice(0, 5))
      process.stderr.write(`stress bench: run ${r.index + 1} failed: ${r.schedule}: ${r.reason}\n`);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
