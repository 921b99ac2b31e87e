/**
 * `conformance --stress N`: N seeded random fault schedules (or one given schedule, N times), run
 * `concurrency` at a time against the agent through the real tap, each checked against the
 * invariants; the first failing run is then shrunk to a minimal failing schedule, whose trace is
 * kept and whose command line reproduces it.
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  generateSchedule,
  printSchedule,
  type StressSchedule,
} from "../../../shared/conformance/stress/schedule.js";
import { keepsFailure, shrinkSchedule } from "../../../shared/conformance/stress/shrink.js";
import type {
  StressFailure,
  StressProgress,
  StressReport,
  StressRunResult,
} from "../../../shared/conformance/stress/stress-result.js";
import { defaultTraceDir } from "../../trace/default-trace-path.js";
import { ensurePrivateDir } from "../../trace/private-files.js";
import { quoteArg } from "../agent-choices.js";
import { SUITE_TOOL } from "../agent-dialers.js";
import { runSchedule, type ScheduleRunOutcome } from "./run-schedule.js";

/** Options of `runStress`. */
export interface StressOptions {
  readonly agentCommand: readonly string[];
  /** Schedules to run (with `schedule`: how many times to run it). */
  readonly runs: number;
  readonly seed: number;
  /** Run this schedule instead of generated ones. */
  readonly schedule?: StressSchedule;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cliCommand?: readonly string[];
  /** Where traces go (default: a new `stress-<time>-<pid>` folder in the default trace folder). */
  readonly tracesDir?: string;
  /** Runs at the same time (default 4). */
  readonly concurrency?: number;
  /** Time limit of one run, ms, from the moment its tap listens (default 30000). */
  readonly runTimeoutMs?: number;
  /** How long the client waits for an answer before it resends, ms (default 1000). */
  readonly attemptTimeoutMs?: number;
  /** Shrink the first failing run (default true). */
  readonly shrink?: boolean;
  /** Runs the shrinker may make (default 40). */
  readonly maxShrinkTries?: number;
  /** Keep the traces of passing runs too (default: only failures'). */
  readonly keepTraces?: boolean;
  /** How the report's repro command names the tool (default `acp-retry-inspector`). */
  readonly commandName?: string;
  readonly signal?: AbortSignal;
}

export const DEFAULT_STRESS_CONCURRENCY = 4;
export const DEFAULT_RUN_TIMEOUT_MS = 30_000;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 1000;

/** The folder name of a stress run's traces. */
export function stressFolderName(start: Date = new Date()): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `stress-${stamp}-${process.pid}`;
}

/** Runs the stress mode; never throws for a failing agent (its failures are in the report). */
export async function runStress(
  options: StressOptions,
  onProgress: (event: StressProgress) => void = () => undefined,
): Promise<StressReport> {
  const started = Date.now();
  const script = process.argv[1];
  const cliCommand = options.cliCommand ?? [process.execPath, ...(script ? [script] : [])];
  const tracesDir = options.tracesDir ?? join(defaultTraceDir(), stressFolderName());
  ensurePrivateDir(tracesDir);
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_STRESS_CONCURRENCY);
  const base = {
    cliCommand,
    agentCommand: options.agentCommand,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    runTimeoutMs: options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
  };
  const scheduleOf = (i: number) => options.schedule ?? generateSchedule(options.seed, i);
  const results: StressRunResult[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      if (options.signal?.aborted) return;
      const index = next++;
      if (index >= options.runs) return;
      const schedule = scheduleOf(index);
      const traceFile = join(tracesDir, `run-${String(index + 1).padStart(4, "0")}.jsonl`);
      const outcome = await runSchedule(schedule, { ...base, traceFile });
      const result = toResult(index, schedule, outcome, options.keepTraces === true);
      results.push(result);
      done++;
      onProgress({ kind: "run-end", result, done, total: options.runs });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, options.runs) }, worker));
  results.sort((a, b) => a.index - b.index);

  const failures: StressFailure[] = [];
  const first = results.find((r) => r.status === "fail");
  if (first && options.shrink !== false && !options.signal?.aborted) {
    onProgress({ kind: "shrink-start", index: first.index, schedule: first.schedule });
    const start = scheduleOf(first.index);
    let tryNo = 0;
    const kept = new Set<string>();
    const shrunk = await shrinkSchedule(
      start,
      { violations: first.violations, traceFile: first.traceFile, reason: first.reason },
      async (candidate) => {
        if (options.signal?.aborted) return undefined;
        tryNo++;
        const traceFile = join(
          tracesDir,
          `shrink-${String(first.index + 1).padStart(4, "0")}-${String(tryNo).padStart(2, "0")}.jsonl`,
        );
        const outcome = await runSchedule(candidate, { ...base, traceFile });
        onProgress({
          kind: "shrink-try",
          index: first.index,
          schedule: printSchedule(candidate),
          failed: outcome.failed,
        });
        if (!outcome.failed) {
          rmSync(traceFile, { force: true });
          return undefined;
        }
        kept.add(traceFile);
        return { violations: outcome.violations, traceFile, reason: outcome.reason };
      },
      options.maxShrinkTries ?? 40,
      // The same invariant on the same prompt's key: another failure is another bug, not a smaller one.
      (start, candidate) => keepsFailure(start.violations, candidate.violations),
    );
    // Only the minimal failing trace stays (and the first failing run's own).
    for (const file of kept) if (file !== shrunk.evidence.traceFile) rmSync(file, { force: true });
    const text = printSchedule(shrunk.schedule);
    const failure: StressFailure = {
      index: first.index,
      schedule: first.schedule,
      shrunk: text,
      shrunkFaults: shrunk.schedule.faults.length,
      violations: shrunk.evidence.violations,
      traceFile: shrunk.evidence.traceFile,
      tries: shrunk.tries,
      reproduce: [
        options.commandName ?? "acp-retry-inspector",
        "conformance",
        "--stress",
        "1",
        "--seed",
        String(options.seed),
        "--schedule",
        text,
        "--",
        ...options.agentCommand,
      ]
        .map(quoteArg)
        .join(" "),
    };
    failures.push(failure);
    onProgress({ kind: "shrink-end", failure });
  }
  const failed = results.filter((r) => r.status === "fail").length;
  return {
    tool: SUITE_TOOL,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    seed: options.seed,
    agentCommand: options.agentCommand,
    tracesDir,
    runs: results,
    failures,
    summary: {
      runs: results.length,
      passed: results.length - failed,
      failed,
      ok: failed === 0 && results.length === options.runs,
      exitStatus: failed === 0 && results.length === options.runs ? 0 : 1,
    },
  };
}

function toResult(
  index: number,
  schedule: StressSchedule,
  outcome: ScheduleRunOutcome,
  keep: boolean,
): StressRunResult {
  const status = outcome.failed ? "fail" : "pass";
  if (status === "pass" && !keep) rmSync(outcome.traceFile, { force: true });
  return {
    index,
    schedule: printSchedule(schedule),
    faults: schedule.faults.length,
    status,
    violations: outcome.violations,
    reason: outcome.reason,
    ...(status === "fail" || keep ? { traceFile: outcome.traceFile } : {}),
    durationMs: outcome.durationMs,
  };
}
