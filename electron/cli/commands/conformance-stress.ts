/**
 * `conformance --stress N [--seed S] [--schedule SPEC] -- <agent command...>`: the stress mode of
 * the conformance command (docs/conformance.md#stress). Progress on stderr (a bar on a terminal,
 * lines otherwise), the summary or `--json` on stdout; exit 0 every run passed, 1 a run failed.
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseSchedule, ScheduleError } from "../../../shared/conformance/stress/schedule.js";
import type { StressProgress, StressReport } from "../../../shared/conformance/stress/stress-result.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { CliError } from "../command.js";
import { usageError } from "../command-args.js";

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} expects a positive integer, got ${value}`);
  return n;
}

/** Renders the text summary of a stress report. */
export function renderStressSummary(report: StressReport): string {
  const { summary } = report;
  const lines = [
    `stress: ${summary.runs} run(s), ${summary.passed} passed, ${summary.failed} failed (seed ${report.seed}, ${(report.durationMs / 1000).toFixed(1)} s)`,
    `traces: ${report.tracesDir}`,
  ];
  for (const r of report.runs.filter((x) => x.status === "fail").slice(0, 10))
    lines.push(`  FAIL run ${r.index + 1}: ${r.schedule}: ${r.reason}`);
  if (summary.failed > 10) lines.push(`  ... and ${summary.failed - 10} more (see --json)`);
  for (const f of report.failures) {
    lines.push(
      `minimal failing schedule (run ${f.index + 1} shrunk from ${f.schedule} in ${f.tries} run(s)): ${f.shrunk} (${f.shrunkFaults} fault(s))`,
    );
    for (const v of f.violations) lines.push(`  ${v.invariant}: ${v.message}`);
    if (f.traceFile) lines.push(`  trace: ${f.traceFile}`);
    lines.push(`  reproduce: ${f.reproduce}`);
  }
  return `${lines.map((l) => terminalSafe(l)).join("\n")}\n`;
}

function bar(done: number, total: number, failed: number): string {
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} runs, ${failed} failed`;
}

/** Runs the stress mode with the conformance command's own arguments (before `--`) and the agent command. */
export async function runStressCommand(own: readonly string[], command: readonly string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...own],
      options: {
        stress: { type: "string" },
        seed: { type: "string" },
        schedule: { type: "string" },
        concurrency: { type: "string" },
        "run-timeout-ms": { type: "string" },
        "attempt-timeout-ms": { type: "string" },
        "no-shrink": { type: "boolean" },
        "keep-traces": { type: "boolean" },
        "traces-dir": { type: "string" },
        cwd: { type: "string" },
        json: { type: "boolean" },
        quiet: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    const { message } = usageError("conformance --stress", err, own);
    throw new CliError(`${message} (the stress mode takes the options under "Stress mode" in --help)`);
  }
  if (command.length === 0)
    throw new CliError("conformance --stress: give the agent command after -- (see --help)");
  const runs = positiveInt("--stress", values.stress as string);
  if (runs === undefined) throw new CliError("conformance --stress expects a number of runs");
  let seed: number;
  if (values.seed !== undefined) {
    const s = Number(values.seed);
    if (!Number.isInteger(s) || s < 0 || s > 0xffffffff)
      throw new CliError(`--seed expects an integer from 0 to 4294967295, got ${values.seed}`);
    seed = s;
  } else seed = Math.floor(Math.random() * 0x100000000);
  let schedule: ReturnType<typeof parseSchedule> | undefined;
  if (values.schedule !== undefined) {
    try {
      schedule = parseSchedule(values.schedule as string);
    } catch (err) {
      if (err instanceof ScheduleError) throw new CliError(`--schedule: ${err.message}`);
      throw err;
    }
  }
  const quiet = values.quiet === true;
  const tty = process.stderr.isTTY === true && !quiet;
  const say = (line: string) => {
    if (quiet) return;
    if (tty) process.stderr.write("\r\x1b[2K");
    process.stderr.write(`conformance: ${terminalSafe(line)}\n`);
  };
  const { runStress } = await import("../../conformance/stress/run-stress.js");
  let failed = 0;
  let lastBar = "";
  const onProgress = (event: StressProgress) => {
    switch (event.kind) {
      case "run-end": {
        const r = event.result;
        if (r.status === "fail") failed++;
        if (tty) {
          if (r.status === "fail") say(`run ${r.index + 1} FAIL: ${r.schedule}: ${r.reason}`);
          lastBar = bar(event.done, event.total, failed);
          process.stderr.write(`\r\x1b[2K${lastBar}`);
        } else
          say(
            `stress [${event.done}/${event.total}] run ${r.index + 1}: ${r.status.toUpperCase()} in ${(r.durationMs / 1000).toFixed(1)} s: ${r.schedule}${r.status === "fail" ? `: ${r.reason}` : ""}`,
          );
        break;
      }
      case "shrink-start":
        say(`shrinking run ${event.index + 1}: ${event.schedule}`);
        break;
      case "shrink-try":
        say(`  shrink: ${event.schedule}: ${event.failed ? "still fails" : "passes"}`);
        break;
      case "shrink-end":
        say(`shrunk to ${event.failure.shrunk}`);
        break;
    }
  };
  say(`stress: ${runs} run(s), seed ${seed}${schedule ? `, schedule ${values.schedule}` : ""}`);
  const report = await runStress(
    {
      agentCommand: command,
      runs,
      seed,
      schedule,
      cwd: values.cwd !== undefined ? resolve(values.cwd as string) : undefined,
      tracesDir: values["traces-dir"] !== undefined ? resolve(values["traces-dir"] as string) : undefined,
      concurrency: positiveInt("--concurrency", values.concurrency as string | undefined),
      runTimeoutMs: positiveInt("--run-timeout-ms", values["run-timeout-ms"] as string | undefined),
      attemptTimeoutMs: positiveInt(
        "--attempt-timeout-ms",
        values["attempt-timeout-ms"] as string | undefined,
      ),
      shrink: values["no-shrink"] !== true,
      keepTraces: values["keep-traces"] === true,
    },
    onProgress,
  );
  if (tty && lastBar !== "") process.stderr.write("\n");
  process.stdout.write(
    values.json === true ? `${terminalSafeJson(report, 2)}\n` : renderStressSummary(report),
  );
  return report.summary.exitStatus;
}
