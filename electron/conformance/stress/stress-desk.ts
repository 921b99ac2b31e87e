/**
 * The stress mode for the app: one stress run at a time against an agent a UI picked from the
 * conformance board's choices (a command; a URL choice cannot be stressed: the stress mode starts
 * the agent behind its own front). Files go to `<traces folder>/conformance/<run>/`; the minimal
 * failing trace is copied into the hub's traces folder as `<run>-stress-minimal.jsonl`, so a UI
 * opens it like any other trace. Status changes go to the listener (the desk's board).
 */

import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import {
  applyStressProgress,
  failStress,
  finishStress,
  IDLE_STRESS,
  isStressActive,
  type StressRunStatus,
  type StressStart,
  startStress,
} from "../../../shared/conformance/stress/stress-board.js";
import type { AgentChoices } from "../agent-choices.js";
import { runStress } from "./run-stress.js";

/** What a stress desk needs (the conformance desk's own options). */
export interface StressDeskOptions {
  readonly choices: AgentChoices;
  readonly cliCommand: readonly string[];
  readonly tracesDir: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}

/** The answer to a start or cancel. */
export type StressReply = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** Turns of the built-in demo agent in a stress run: short, so a run of many schedules stays short. */
export const BUILT_IN_STRESS_TURN_MS = 100;

/** One stress run at a time. */
export class StressDesk {
  private current: StressRunStatus = IDLE_STRESS;
  private abort: AbortController | undefined;
  private finished: Promise<void> = Promise.resolve();
  private runs = 0;

  constructor(
    private readonly options: StressDeskOptions,
    private readonly onChange: () => void,
  ) {}

  /** The current (or last) stress run. */
  get status(): StressRunStatus {
    return this.current;
  }

  /** Starts a stress run unless one is going, the agent is not a choice, or it is not a command. */
  start(request: StressStart, runFolder: string): StressReply {
    if (isStressActive(this.current)) return { ok: false, error: "a stress run is already going" };
    const entry = this.options.choices.entries.find((e) => e.choice.id === request.agent);
    if (!entry) return { ok: false, error: `no agent choice ${request.agent} on this hub` };
    const runId = `${runFolder.replace(/^conformance-/, "stress-")}-${++this.runs}`;
    const runDir = join(this.options.tracesDir, "conformance", runId);
    const agent = entry.agent(runDir);
    if (agent.kind !== "stdio")
      return {
        ok: false,
        error: "the stress mode needs an agent command, not a URL: it starts the agent behind its own tap",
      };
    const command =
      entry.choice.source === "built-in"
        ? [...agent.command, "--turn-ms", String(BUILT_IN_STRESS_TURN_MS)]
        : agent.command;
    const seed = request.seed ?? Math.floor(Math.random() * 0x100000000);
    this.abort = new AbortController();
    this.set(startStress(runId, entry.choice, request, seed, new Date().toISOString(), runDir));
    const signal = this.abort.signal;
    this.finished = this.run(
      runId,
      runDir,
      command,
      entry.cwd ?? runDir,
      { ...process.env, ...this.options.env, ...entry.env },
      request.runs,
      seed,
      signal,
    );
    return { ok: true };
  }

  /** Asks the running stress run to stop: schedules not started are left out, running ones end. */
  cancel(): StressReply {
    if (this.current.state !== "running") return { ok: false, error: "no stress run is going" };
    this.set({ ...this.current, state: "cancelling" });
    this.abort?.abort();
    return { ok: true };
  }

  /** Cancels any run and waits for it to end (hub shutdown). */
  async close(): Promise<void> {
    this.abort?.abort();
    await this.finished;
  }

  private async run(
    runId: string,
    runDir: string,
    command: readonly string[],
    cwd: string,
    env: NodeJS.ProcessEnv,
    runs: number,
    seed: number,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      await mkdir(runDir, { recursive: true, mode: 0o700 });
      await runStress(
        {
          agentCommand: command,
          runs,
          seed,
          cwd,
          env,
          cliCommand: this.options.cliCommand,
          tracesDir: runDir,
          signal,
        },
        (event) => this.set(applyStressProgress(this.current, event)),
      );
      const failure = this.current.failure;
      if (failure?.traceFile) {
        const traceId = `${runId}-stress-minimal`;
        try {
          await copyFile(failure.traceFile, join(this.options.tracesDir, `${traceId}.jsonl`));
          this.set({ ...this.current, failure: { ...failure, traceId } });
        } catch (err) {
          this.options.log?.(
            `conformance: could not store the minimal failing trace: ${(err as Error).message}`,
          );
        }
      }
      this.set(finishStress(this.current, new Date().toISOString()));
    } catch (err) {
      this.set(
        failStress(this.current, err instanceof Error ? err.message : String(err), new Date().toISOString()),
      );
    }
  }

  private set(status: StressRunStatus): void {
    this.current = status;
    this.onChange();
  }
}
