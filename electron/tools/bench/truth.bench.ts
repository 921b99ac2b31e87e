import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFinding } from "../../truth/finding-report.js";
import { sampleSchedules } from "../../truth/schedule-arbitrary.js";
import { runTruth } from "../../truth/truth-run.js";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../build/build-cli.mjs";
import type { Bench, BenchRow } from "./bench-row.js";

/*
 * The truth oracle's benchmark (issue 30): TRUTH_BENCH_RUNS (default 2,000) random fault schedules,
 * drawn by fast-check with TRUTH_BENCH_SEED, through the real tap with demo-agent and demo-client,
 * every `analyze --json` claim compared with the agent's store and the client's own record
 * (docs/truth-oracle.md). Goals: 0 false statements; the rate is reported (schedules per minute).
 * Set ACP_RI_CLI to an already built cli.js to skip the build; ACP_RI_TRUTH_ANALYZER_CLI to judge
 * another build's analyzer (e.g. an old one, to see the oracle fail); TRUTH_BENCH_CONCURRENCY taps at once (2).
 */

const RUNS = Number(process.env.TRUTH_BENCH_RUNS ?? 2000);
const SEED = Number(process.env.TRUTH_BENCH_SEED ?? 20261204);

/** `npm run bench -- truth`. */
export const truthBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-truth-bench-"));
  let keep = false;
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(join(dir, "cli")));
    const analyzerCli = process.env.ACP_RI_TRUTH_ANALYZER_CLI;
    const started = performance.now();
    const result = await runTruth({
      cliCommand: [process.execPath, cli],
      ...(analyzerCli ? { analyzerCli: [process.execPath, analyzerCli] } : {}),
      schedules: sampleSchedules(SEED, RUNS),
      dir: join(dir, "runs"),
      env: process.env,
      maxShrinkTries: 10,
      concurrency: Number(process.env.TRUTH_BENCH_CONCURRENCY ?? 2),
      onBatch: (done, total) => {
        if (done % 25 === 0 || done === total)
          process.stderr.write(
            `truth bench: ${done}/${total} batches, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
          );
      },
    });
    const minutes = (performance.now() - started) / 60_000;
    const judged = result.judgements.filter((j) => j.problem === undefined);
    const falseOnes = result.judgements.filter((j) => j.falseStatements.length > 0);
    const statements = falseOnes.reduce((n, j) => n + j.falseStatements.length, 0);
    const perMinute = result.judgements.length / minutes;
    // The traces of false statements are the evidence: kept, and their folder named.
    keep = falseOnes.length > 0;
    if (keep) process.stderr.write(`truth bench: traces kept in ${dir}\n`);
    if (result.finding)
      process.stderr.write(
        `truth bench: first false statement, shrunk:\n${describeFinding(result.finding)}\n`,
      );
    for (const j of falseOnes.slice(0, 20)) process.stderr.write(`truth bench: ${describeFinding(j)}\n`);
    for (const j of result.judgements.filter((x) => x.problem !== undefined).slice(0, 5))
      process.stderr.write(`truth bench: not judged: ${j.problem}\n`);
    const rows: BenchRow[] = [
      {
        name: `truth oracle: false statements in ${RUNS} schedules (seed ${SEED})`,
        measured: `${statements} in ${falseOnes.length} schedule(s); ${judged.length} judged`,
        baseline: "",
        ratio: statements,
        goal: `0, >= ${RUNS} judged`,
        met: statements === 0 && judged.length >= RUNS,
      },
      {
        name: "truth oracle: schedules per minute (real tap, demo-agent, demo-client)",
        measured: `${perMinute.toFixed(0)}/min (${(minutes * 60).toFixed(0)} s)`,
        baseline: "",
        ratio: perMinute,
        goal: "reported",
        met: true,
      },
    ];
    return rows;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
};
