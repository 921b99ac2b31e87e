/**
 * `conformance --stress` against the demo agent, with real processes: the tap's remote front, an
 * agent process per connection, the stress client over a loopback WebSocket. A correct agent
 * passes every seeded run; an agent that ignores keys (`--mode naive`) or keeps them in memory
 * only (`--mode forgetful`) is caught, and the failure is shrunk to at most 3 faults, printed as
 * a command that reproduces it, with its trace kept.
 */

import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseSchedule } from "../../../shared/conformance/stress/schedule.js";
import type { StressReport } from "../../../shared/conformance/stress/stress-result.js";
import { cliPath } from "../../tools/testing/cli.js";
import { analyzeTraceFile } from "../../trace/analyze-trace-file.js";
import { demoAgentCommand, tempDir } from "../testing/conformance-fixtures.js";
import { runStress } from "./run-stress.js";

/**
 * How many seeded runs the correct agent must pass: 200, as the issue asks. A clean CI run did 40
 * in 40 s beside the other test files; on a machine loaded far beyond its 2 cores 200 runs took up
 * to 13 minutes, so `STRESS_TEST_RUNS=N` runs fewer there. The benchmark
 * (`npm run bench -- stress`) times the same 200.
 */
const RUNS = Number(process.env.STRESS_TEST_RUNS ?? 200);

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliPath(), "conformance", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs the CLI's stress mode against the demo agent in `mode`; returns the exit status and the report. */
async function stressCli(
  mode: string,
  args: readonly string[],
): Promise<{ code: number | null; report: StressReport; stderr: string }> {
  const { code, stdout, stderr } = await runCli([
    "--stress",
    ...args,
    "--json",
    "--traces-dir",
    tempDir("stress-traces"),
    "--",
    ...demoAgentCommand(mode, 50),
  ]);
  return { code, report: JSON.parse(stdout) as StressReport, stderr };
}

/** Checks a caught agent: a shrunk schedule of at most 3 faults, its trace kept, its command reproducing it. */
async function expectCaught(mode: string, runs: number, seed: number): Promise<void> {
  const { code, report, stderr } = await stressCli(mode, [
    String(runs),
    "--seed",
    String(seed),
    "--concurrency",
    "4",
  ]);
  expect(code, stderr).toBe(1);
  expect(report.summary.failed).toBeGreaterThan(0);
  const [failure] = report.failures;
  expect(failure, "the first failure is shrunk").toBeDefined();
  if (!failure) return;
  expect(failure.shrunkFaults).toBeLessThanOrEqual(3);
  expect(failure.shrunkFaults).toBe(parseSchedule(failure.shrunk).faults.length);
  expect(failure.violations.map((v) => v.invariant)).toContain("one-insert");
  // The minimal failing trace is kept, and the analyzer sees the duplicate in it.
  expect(failure.traceFile && existsSync(failure.traceFile)).toBe(true);
  const { model } = await analyzeTraceFile(failure.traceFile as string);
  expect(model.verdictCounts["duplicate-insert"]).toBeGreaterThan(0);
  // The printed command names the seed and the shrunk schedule; run it again: it fails again.
  expect(failure.reproduce).toContain(`--stress 1 --seed ${seed} --schedule ${failure.shrunk} -- `);
  const again = await stressCli(mode, [
    "1",
    "--seed",
    String(seed),
    "--schedule",
    failure.shrunk,
    "--no-shrink",
  ]);
  expect(again.code, again.stderr).toBe(1);
  expect(again.report.runs.map((r) => r.schedule)).toEqual([failure.shrunk]);
  expect(again.report.runs[0]?.violations.map((v) => v.invariant)).toContain("one-insert");
  // Progress lines went to stderr, one per run (not a terminal here).
  expect(stderr.match(/conformance: stress \[\d+\/\d+\] run \d+: (PASS|FAIL)/g)).toHaveLength(runs);
}

describe("conformance --stress", () => {
  test(
    `${RUNS} seeded runs pass against the correct demo agent`,
    async () => {
      const tracesDir = tempDir("stress-200");
      const report = await runStress({
        agentCommand: demoAgentCommand("correct", 50),
        cliCommand: [process.execPath, cliPath()],
        runs: RUNS,
        seed: 20261201,
        tracesDir,
        concurrency: 3,
      });
      const failed = report.runs.filter((r) => r.status === "fail");
      expect(failed.map((r) => `${r.schedule}: ${r.reason}`)).toEqual([]);
      expect(report.summary).toMatchObject({ runs: RUNS, passed: RUNS, failed: 0, ok: true, exitStatus: 0 });
      // Every fault action was exercised.
      const actions = new Set(
        report.runs.flatMap((r) => parseSchedule(r.schedule).faults.map((f) => f.action)),
      );
      expect(actions.size).toBe(9);
      // Passing runs leave no trace behind.
      expect(readdirSync(tracesDir).filter((f) => f.endsWith(".jsonl"))).toEqual([]);
    },
    30 * 60_000,
  );

  test(
    "catches --mode naive with a shrunk schedule of at most 3 faults",
    () => expectCaught("naive", 8, 42),
    10 * 60_000,
  );

  test(
    "catches --mode forgetful with a shrunk schedule of at most 3 faults",
    () => expectCaught("forgetful", 12, 7),
    10 * 60_000,
  );

  test(
    "a correct agent passes a given schedule; usage errors exit 2",
    async () => {
      const ok = await stressCli("correct", [
        "2",
        "--seed",
        "9",
        "--schedule",
        "2p:kill-agent@1.response,drop-response@2.response",
      ]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.report.runs.map((r) => [r.schedule, r.status])).toEqual([
        ["2p:kill-agent@1.response,drop-response@2.response", "pass"],
        ["2p:kill-agent@1.response,drop-response@2.response", "pass"],
      ]);
      expect(ok.report.failures).toEqual([]);
      const bad = await runCli(["--stress", "1", "--schedule", "2p:explode@1", "--", "true"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--schedule: 'explode@1': unknown action 'explode'");
      const noAgent = await runCli(["--stress", "3"]);
      expect(noAgent.code).toBe(2);
      expect(noAgent.stderr).toContain("give the agent command after --");
    },
    5 * 60_000,
  );
});
