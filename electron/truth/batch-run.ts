/**
 * Runs a batch of truth schedules for real through one tap: a remote front of the real proxy
 * (`proxy --listen ws://127.0.0.1:0 --trace FILE --no-hub --fault ...`) that starts the reference
 * agent (`demo-agent --store DIR`) per connection, with the fault rules of every schedule of the
 * batch (each names its prompt's key, and keys are unique per schedule), and one reference client
 * (`demo-client`) process per schedule, a few at once. An unkeyed schedule's rules cannot name a
 * key, so it runs alone in its batch.
 */

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FrontProcess } from "../conformance/front-process.js";
import { faultArg } from "../conformance/stress/run-schedule.js";
import { type ClientPrompt, type ClientRunResult, runClient } from "./client-run.js";
import type { TruthSchedule } from "./truth-schedule.js";

/** Where and how a batch runs. */
export interface BatchOptions {
  /** How to run this tool's CLI, e.g. `[process.execPath, "/path/to/cli.js"]`. */
  readonly cliCommand: readonly string[];
  /** A fresh folder for the batch's trace, store and client files. */
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The agent's `--turn-ms` (default 20). */
  readonly turnMs?: number;
  /** The client's `--timeout`, ms (default 1500); its `--setup-timeout` is the deadline. */
  readonly attemptTimeoutMs?: number;
  /** Each client is killed after this long, ms (default 60000). */
  readonly clientDeadlineMs?: number;
  /** Clients running at once (default 4). */
  readonly clientsAtOnce?: number;
}

/** One schedule's run within a batch. */
export interface ScheduleRun {
  readonly schedule: TruthSchedule;
  readonly prompts: readonly ClientPrompt[];
  readonly pendingFile: string;
  readonly client: ClientRunResult;
}

/** A batch's run: its trace and store, and each schedule's client run. */
export interface BatchRun {
  readonly traceFile: string;
  readonly storeDir: string;
  readonly runs: readonly ScheduleRun[];
  /** Why the batch could not run (the front did not start), if so. */
  readonly problem?: string;
}

/** The `--fault` arguments of an unkeyed schedule: each hits the next matching `session/prompt` frame. */
function unkeyedFaultArgs(schedule: TruthSchedule): string[] {
  return schedule.faults.flatMap((f) => {
    const arg = faultArg(f, "-");
    return ["--fault", arg.replace(",key=-", ",count=1")];
  });
}

/** Runs `schedules` (all keyed, or one unkeyed) through one tap; never throws for a failing run. */
export async function runBatch(
  schedules: readonly TruthSchedule[],
  options: BatchOptions,
): Promise<BatchRun> {
  const traceFile = join(options.dir, "trace.jsonl");
  const storeDir = join(options.dir, "store");
  const nonce = randomUUID().slice(0, 8);
  const planned = schedules.map((schedule, i) => {
    const prompts: ClientPrompt[] = Array.from({ length: schedule.prompts }, (_, j) => ({
      text: `truth ${nonce} s${i + 1}: prompt ${j + 1}`,
      key: schedule.keyed ? `truth-${nonce}-s${i + 1}-p${j + 1}` : null,
    }));
    const faults = schedule.keyed
      ? schedule.faults.flatMap((f) => ["--fault", faultArg(f, prompts[f.prompt - 1]?.key as string)])
      : unkeyedFaultArgs(schedule);
    return { schedule, prompts, faults, folder: join(options.dir, `s${i + 1}`) };
  });
  const [node, ...cli] = options.cliCommand;
  const front = new FrontProcess({
    cliCommand: options.cliCommand,
    agentCommand: [
      node as string,
      ...cli,
      "demo-agent",
      "--store",
      storeDir,
      "--turn-ms",
      String(options.turnMs ?? 20),
    ],
    // Every client of the batch at once, each reconnect with an agent of its own: more than the default 8.
    extraArgs: ["--max-agents", "64", ...planned.flatMap((p) => p.faults)],
    traceFile,
    cwd: options.dir,
    env: options.env,
  });
  try {
    const urls = await front.ready;
    const runs: ScheduleRun[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        const p = planned[i];
        if (p === undefined) return;
        mkdirSync(p.folder, { recursive: true });
        const pendingFile = join(p.folder, "pending.json");
        const client = await runClient({
          cliCommand: options.cliCommand,
          url: urls.ws,
          token: urls.token,
          pendingFile,
          prompts: p.prompts,
          cwd: p.folder,
          env: options.env,
          attemptTimeoutMs: options.attemptTimeoutMs ?? 1500,
          deadlineMs: options.clientDeadlineMs ?? 60_000,
        });
        runs[i] = { schedule: p.schedule, prompts: p.prompts, pendingFile, client };
      }
    };
    // A few clients at once: each is a node process and starts another for its agent (2 cores).
    await Promise.all(Array.from({ length: Math.max(1, options.clientsAtOnce ?? 4) }, worker));
    return { traceFile, storeDir, runs };
  } catch (err) {
    return { traceFile, storeDir, runs: [], problem: err instanceof Error ? err.message : String(err) };
  } finally {
    await front.stop();
  }
}
