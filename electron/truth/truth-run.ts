/**
 * The truth oracle's driver: runs schedules in batches through the real tap and the reference peers
 * (`batch-run.ts`), judges each against ground truth (`judge-batch.ts`), and shrinks the first
 * schedule that made the analyzer say something false to a smaller one that still makes it say a
 * false thing of the same kind (the stress shrinker, each candidate run for real, alone).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { shrinkSchedule } from "../../shared/conformance/stress/shrink.js";
import { type BatchOptions, runBatch } from "./batch-run.js";
import { claimKinds, type TruthFinding } from "./finding-report.js";
import { judgeBatch, type ScheduleJudgement } from "./judge-batch.js";
import { type TruthSchedule, truthScheduleOf } from "./truth-schedule.js";

/** Options of `runTruth`. */
export interface TruthRunOptions extends Omit<BatchOptions, "dir"> {
  readonly schedules: readonly TruthSchedule[];
  /** Folder for every batch's files. */
  readonly dir: string;
  /** Keyed schedules per tap (default 8). */
  readonly batchSize?: number;
  /** Batches at once (default 1). */
  readonly concurrency?: number;
  /** Runs the shrinker may make (default 20; 0: no shrinking). */
  readonly maxShrinkTries?: number;
  /** The CLI whose `analyze --json` is judged (default: `cliCommand`'s). */
  readonly analyzerCli?: readonly string[];
  /** Called after each batch is judged. */
  readonly onBatch?: (done: number, total: number) => void;
}

/** What the oracle found. */
export interface TruthRunResult {
  readonly judgements: readonly ScheduleJudgement[];
  /** The first failing schedule, shrunk (absent when nothing was false). */
  readonly finding?: TruthFinding;
  readonly durationMs: number;
}

/** Groups schedules into batches: keyed ones `size` at a time, each unkeyed one alone. */
export function batchesOf(schedules: readonly TruthSchedule[], size: number): TruthSchedule[][] {
  const out: TruthSchedule[][] = [];
  let current: TruthSchedule[] = [];
  for (const s of schedules) {
    if (!s.keyed) {
      out.push([s]);
      continue;
    }
    current.push(s);
    if (current.length >= size) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Runs and judges one batch in its own folder `dir`. */
export async function runAndJudge(
  schedules: readonly TruthSchedule[],
  options: Omit<BatchOptions, "dir"> & { readonly analyzerCli?: readonly string[] },
  dir: string,
): Promise<ScheduleJudgement[]> {
  mkdirSync(dir, { recursive: true });
  const batch = await runBatch(schedules, { ...options, dir });
  return judgeBatch(batch, schedules, options.analyzerCli ?? options.cliCommand, options.env);
}

/** Runs every schedule, judges it, and shrinks the first false one. */
export async function runTruth(options: TruthRunOptions): Promise<TruthRunResult> {
  const started = Date.now();
  const batches = batchesOf(options.schedules, options.batchSize ?? 8);
  const judgements: ScheduleJudgement[][] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= batches.length) return;
      judgements[i] = await runAndJudge(
        batches[i] as TruthSchedule[],
        options,
        join(options.dir, `batch-${i + 1}`),
      );
      done++;
      options.onBatch?.(done, batches.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  const all = judgements.flat();
  const first = all.find((j) => j.falseStatements.length > 0);
  let finding: TruthFinding | undefined;
  if (first) {
    const batchmates = all
      .filter((j) => j !== first && j.traceFile === first.traceFile)
      .map((j) => j.schedule);
    finding = await shrink(first, batchmates, options);
  }
  return { judgements: all, ...(finding ? { finding } : {}), durationMs: Date.now() - started };
}

async function shrink(
  first: ScheduleJudgement,
  batchmates: readonly TruthSchedule[],
  options: TruthRunOptions,
): Promise<TruthFinding> {
  const start: TruthFinding = {
    schedule: first.schedule,
    falseStatements: first.falseStatements,
    traceFile: first.traceFile,
    ...(batchmates.length > 0 && { batchmates }),
  };
  const maxTries = options.maxShrinkTries ?? 20;
  if (maxTries <= 0) return start;
  const kinds = claimKinds(first.falseStatements);
  let tryNo = 0;
  const shrunk = await shrinkSchedule(
    first.schedule,
    start,
    async (candidate) => {
      tryNo++;
      const schedule = truthScheduleOf(candidate, first.schedule.keyed);
      const [j] = await runAndJudge([schedule], options, join(options.dir, `shrink-${tryNo}`));
      // A shrink keeps its failure: the same kind of false claim, not just any.
      const same = (j?.falseStatements ?? []).filter((s) => [...claimKinds([s])].some((k) => kinds.has(k)));
      return j && same.length > 0
        ? { schedule, falseStatements: j.falseStatements, traceFile: j.traceFile }
        : undefined;
    },
    maxTries,
  );
  return { ...shrunk.evidence, original: first.schedule };
}
