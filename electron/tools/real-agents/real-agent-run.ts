/**
 * Runs truth-oracle schedules against a real agent: per schedule, the real tap (`proxy --listen
 * ws://127.0.0.1:0 --fault ...`) starts the agent per connection with a private HOME, pointed at
 * the fake model API; `demo-client` is the client; then `analyze --json` of the trace, and every
 * claim about what the client saw is compared with the client's own record (`client-saw.ts`).
 */

import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { FrontProcess } from "../../conformance/front-process.js";
import { faultArg } from "../../conformance/stress/run-schedule.js";
import { analyzeJson } from "../../truth/analyzer-claims.js";
import { claimsOf, rowsFor } from "../../truth/claims.js";
import { type ClientPrompt, runClient } from "../../truth/client-run.js";
import { readClientTruth } from "../../truth/client-truth.js";
import type { FalseStatement } from "../../truth/compare.js";
import { printTruthSchedule, type TruthSchedule } from "../../truth/truth-schedule.js";
import type { RealAgent } from "./agent-setups.js";
import { compareClientSaw } from "./client-saw.js";

/** One schedule's judgement against a real agent. */
export interface RealAgentJudgement {
  readonly agent: string;
  readonly schedule: TruthSchedule;
  readonly traceFile: string;
  readonly falseStatements: readonly FalseStatement[];
  /** Submissions the client got an answer for, of all. */
  readonly answered: number;
  readonly submissions: number;
  /** Why it could not be judged, if so (not a false statement). */
  readonly problem?: string;
}

/** Options of one schedule's run. */
export interface RealAgentRunOptions {
  readonly cliCommand: readonly string[];
  readonly agent: RealAgent;
  readonly apiUrl: string;
  /** A fresh folder for this run's trace, HOME and client files. */
  readonly dir: string;
  /** The client's attempt timeout, ms (a real agent's turn takes seconds). */
  readonly attemptTimeoutMs?: number;
  readonly clientDeadlineMs?: number;
  /** The CLI whose `analyze --json` is judged (default: `cliCommand`'s). */
  readonly analyzerCli?: readonly string[];
}

/** The `--fault` arguments of `schedule` for `prompts` (unkeyed: each hits the next `session/prompt`). */
export function faultArgs(schedule: TruthSchedule, prompts: readonly ClientPrompt[]): string[] {
  return schedule.faults.flatMap((f) => {
    const key = prompts[f.prompt - 1]?.key;
    return ["--fault", key ? faultArg(f, key) : faultArg(f, "-").replace(",key=-", ",count=1")];
  });
}

/** Runs and judges one schedule against the real agent; never throws. */
export async function runRealAgentSchedule(
  schedule: TruthSchedule,
  options: RealAgentRunOptions,
): Promise<RealAgentJudgement> {
  const { agent, dir } = options;
  mkdirSync(dir, { recursive: true });
  const traceFile = join(dir, "trace.jsonl");
  const env = agent.env(join(dir, "home"), options.apiUrl);
  const work = join(dir, "work");
  mkdirSync(work, { recursive: true });
  const nonce = dir.replace(/[^A-Za-z0-9]/g, "").slice(-8);
  const prompts: ClientPrompt[] = Array.from({ length: schedule.prompts }, (_, j) => ({
    text: `say ok (${nonce} prompt ${j + 1})`,
    key: schedule.keyed ? `real-${agent.name}-${nonce}-p${j + 1}` : null,
  }));
  const base = { agent: agent.name, schedule, traceFile, submissions: prompts.length };
  const front = new FrontProcess({
    cliCommand: options.cliCommand,
    agentCommand: agent.command,
    extraArgs: ["--max-agents", "16", ...faultArgs(schedule, prompts)],
    traceFile,
    cwd: work,
    env,
  });
  let stdout = "";
  let killed = false;
  const pendingFile = join(dir, "pending.json");
  try {
    const urls = await front.ready;
    const run = await runClient({
      cliCommand: options.cliCommand,
      url: urls.ws,
      token: urls.token,
      pendingFile,
      prompts,
      cwd: work,
      env,
      attemptTimeoutMs: options.attemptTimeoutMs ?? 15_000,
      deadlineMs: options.clientDeadlineMs ?? 120_000,
    });
    stdout = run.stdout;
    killed = run.killed;
  } catch (err) {
    return {
      ...base,
      falseStatements: [],
      answered: 0,
      problem: err instanceof Error ? err.message : String(err),
    };
  } finally {
    await front.stop();
  }
  const client = readClientTruth(stdout, pendingFile);
  if (!client) return { ...base, falseStatements: [], answered: 0, problem: "the client left no record" };
  const analyzed = await analyzeJson(options.analyzerCli ?? options.cliCommand, traceFile, process.env);
  if ("problem" in analyzed) return { ...base, falseStatements: [], answered: 0, problem: analyzed.problem };
  const falseStatements: FalseStatement[] = [];
  if (schedule.keyed)
    for (const p of prompts) {
      const mine = client.submissions.find((s) => s.key === p.key);
      falseStatements.push(
        ...compareClientSaw(claimsOf(p.key, rowsFor(analyzed.submissions, p.key, client.sessionId)), mine),
      );
    }
  else {
    const merged = {
      key: null,
      received: client.submissions.flatMap((s) => s.received),
      idless: client.submissions.reduce((n, s) => n + s.idless, 0),
      errors: client.submissions.flatMap((s) => s.errors),
      attempts: 0,
      status: "",
    };
    const rows = client.sessionId ? rowsFor(analyzed.submissions, null, client.sessionId) : [];
    falseStatements.push(...compareClientSaw(claimsOf(null, rows), merged));
  }
  const answered = client.submissions.filter((s) => s.received.length + s.idless > 0).length;
  const unsettled = client.submissions.some((s) => s.status === "pending");
  const problem =
    killed && unsettled ? "the client was killed at its deadline with a submission pending" : undefined;
  return { ...base, falseStatements, answered, ...(problem ? { problem } : {}) };
}

/** Copies a run's trace into `folder` as `AGENT-N-SCHEDULE.jsonl` (for schema validation); returns its path. */
export function keepTrace(j: RealAgentJudgement, folder: string, n: number): string | undefined {
  if (!existsSync(j.traceFile)) return undefined;
  mkdirSync(folder, { recursive: true });
  const name = `${j.agent}-${n}-${printTruthSchedule(j.schedule).replace(/[^A-Za-z0-9.@+-]+/g, "_")}.jsonl`;
  const to = join(folder, name.slice(0, 180));
  copyFileSync(j.traceFile, to);
  return to;
}
