/**
 * Judges a batch's run: the analyzer under test over the batch's trace (`analyze --json` of
 * `analyzerCli`), then
 * each schedule's submissions compared with the agent's store and the client's own record.
 */

import { insertsOfKey, readAgentTruth } from "./agent-truth.js";
import { analyzeJson } from "./analyzer-claims.js";
import type { BatchRun, ScheduleRun } from "./batch-run.js";
import { claimsOf, type JsonSubmission, rowsFor } from "./claims.js";
import { readClientTruth } from "./client-truth.js";
import { compareClaims, type FalseStatement } from "./compare.js";
import type { TruthSchedule } from "./truth-schedule.js";

/** One schedule's verdict from the oracle. */
export interface ScheduleJudgement {
  readonly schedule: TruthSchedule;
  readonly traceFile: string;
  readonly falseStatements: readonly FalseStatement[];
  /** Why the schedule could not be judged (no client record, unreadable trace...), if so: not a false statement. */
  readonly problem?: string;
}

/** Judges every schedule of `batch` with the analyzer of the CLI `analyzerCli`; never throws. */
export async function judgeBatch(
  batch: BatchRun,
  schedules: readonly TruthSchedule[],
  analyzerCli: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ScheduleJudgement[]> {
  const { traceFile } = batch;
  if (batch.problem !== undefined)
    return schedules.map((schedule) => ({
      schedule,
      traceFile,
      falseStatements: [],
      problem: batch.problem,
    }));
  const analyzed = await analyzeJson(analyzerCli, traceFile, env);
  if ("problem" in analyzed) {
    const problem = analyzed.problem;
    return schedules.map((schedule) => ({ schedule, traceFile, falseStatements: [], problem }));
  }
  return batch.runs.map((run) => judgeRun(run, analyzed.submissions, batch));
}

function judgeRun(run: ScheduleRun, model: readonly JsonSubmission[], batch: BatchRun): ScheduleJudgement {
  const { schedule } = run;
  const base = { schedule, traceFile: batch.traceFile };
  const client = readClientTruth(run.client.stdout, run.pendingFile);
  if (!client)
    return { ...base, falseStatements: [], problem: "the client left no report and no pending file" };
  const sessionId = client.sessionId;
  const agent = sessionId ? readAgentTruth(batch.storeDir, sessionId) : undefined;
  const falseStatements: FalseStatement[] = [];
  if (schedule.keyed) {
    for (const p of run.prompts) {
      const mine = client.submissions.find((s) => s.key === p.key);
      const inserted = agent ? insertsOfKey(agent, p.key) : [];
      const claims = claimsOf(p.key, rowsFor(model, p.key, sessionId));
      falseStatements.push(
        ...compareClaims(claims, { inserted, received: mine?.received ?? [], errors: mine?.errors ?? [] }),
      );
    }
  } else {
    const inserted = agent ? insertsOfKey(agent, null) : [];
    const received = client.submissions.flatMap((s) => s.received);
    const errors = client.submissions.flatMap((s) => s.errors);
    const claims = claimsOf(null, sessionId ? rowsFor(model, null, sessionId) : []);
    falseStatements.push(...compareClaims(claims, { inserted, received, errors }));
  }
  // Killed at its deadline with a submission unsettled, the client may have received an answer it
  // had not yet written down: its record is not the whole truth then.
  const unsettled = client.submissions.some((s) => s.status === "pending");
  const problem =
    run.client.killed && unsettled
      ? "the client was killed at its deadline with a submission pending"
      : undefined;
  return { ...base, falseStatements, ...(problem ? { problem } : {}) };
}
