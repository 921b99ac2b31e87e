/**
 * Runs the conformance suite for the app, one run at a time, against an agent a UI picked from the
 * hub's choices. Each run writes its files under `<traces folder>/conformance/<run>/`, and every
 * case trace (and the probe's) is copied into the hub's traces folder as
 * `<run>-<case>.jsonl`, so UIs open it like any other trace. Status changes go to listeners.
 */

import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { CaseName } from "../../shared/conformance/conformance-result.js";
import {
  applyProgress,
  type ConformanceBoard,
  type ConformanceRunStatus,
  type ConformanceStart,
  failRun,
  finishRun,
  IDLE_RUN,
  isActive,
  startRun,
  withTrace,
} from "../../shared/conformance/conformance-run.js";
import type { StressStart } from "../../shared/conformance/stress/stress-board.js";
import type { AgentChoices } from "./agent-choices.js";
import { runFolderName } from "./conformance-options.js";
import { runConformance } from "./run-conformance.js";
import { StressDesk } from "./stress/stress-desk.js";

/** What a desk needs. */
export interface ConformanceDeskOptions {
  readonly choices: AgentChoices;
  /** How to run this tool's CLI (the tap), e.g. `[node, dist/cli.js]`. */
  readonly cliCommand: readonly string[];
  /** The hub's traces folder. */
  readonly tracesDir: string;
  /** Extra environment for every process of a run (e.g. `ELECTRON_RUN_AS_NODE`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Time limit of one case, ms (the suite's default otherwise). */
  readonly caseTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

/** The answer to a start or cancel (a start's names the run it started). */
export type DeskReply =
  | { readonly ok: true; readonly runId?: string }
  | { readonly ok: false; readonly error: string };

/** One conformance run at a time, for the hub's UIs. */
export class ConformanceDesk {
  private status: ConformanceRunStatus = IDLE_RUN;
  private abort: AbortController | undefined;
  private finished: Promise<void> = Promise.resolve();
  private runs = 0;
  private readonly listeners = new Set<(board: ConformanceBoard) => void>();

  /** The stress mode (`conformance --stress` in the app). */
  private readonly stress: StressDesk;

  constructor(private readonly options: ConformanceDeskOptions) {
    this.stress = new StressDesk(options, () => this.publish());
  }

  /** The choices and the current (or last) run. */
  board(): ConformanceBoard {
    const { entries, configProblem } = this.options.choices;
    return {
      choices: entries.map((e) => e.choice),
      ...(configProblem !== undefined && { configProblem }),
      run: this.status,
      stress: this.stress.status,
    };
  }

  /** Calls `listener` on every change; returns an unsubscribe. */
  onBoard(listener: (board: ConformanceBoard) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a run unless one is going or the agent is not one of the choices. */
  start(request: ConformanceStart): DeskReply {
    if (isActive(this.status.state)) return { ok: false, error: "a conformance run is already going" };
    const entry = this.options.choices.entries.find((e) => e.choice.id === request.agent);
    if (!entry) return { ok: false, error: `no agent choice ${request.agent} on this hub` };
    // Numbered too: two short runs can start within the same second.
    const runId = `${runFolderName()}-${++this.runs}`;
    const runDir = join(this.options.tracesDir, "conformance", runId);
    this.abort = new AbortController();
    this.set(startRun(runId, entry.choice, new Date().toISOString(), runDir, request.only));
    const signal = this.abort.signal;
    this.finished = this.run(runId, runDir, entry, request.only, signal);
    return { ok: true, runId };
  }

  /** Asks the running run to stop: cases not started are skipped, running ones end within their limit. */
  cancel(): DeskReply {
    if (this.status.state !== "running") return { ok: false, error: "no conformance run is going" };
    this.set({ ...this.status, state: "cancelling" });
    this.abort?.abort();
    return { ok: true };
  }

  /** Starts a stress run (see `StressDesk`). */
  startStress(request: StressStart): DeskReply {
    return this.stress.start(request, runFolderName());
  }

  /** Cancels the running stress run. */
  cancelStress(): DeskReply {
    return this.stress.cancel();
  }

  /** Cancels any run and waits for it to end (hub shutdown). */
  async close(): Promise<void> {
    this.abort?.abort();
    await Promise.all([this.finished, this.stress.close()]);
    this.listeners.clear();
  }

  private async run(
    runId: string,
    runDir: string,
    entry: AgentChoices["entries"][number],
    only: readonly CaseName[] | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const stored: Promise<void>[] = [];
    const store = (name: CaseName | "probe", file: string | undefined) => {
      if (file === undefined) return;
      const traceId = `${runId}-${name}`;
      stored.push(
        copyFile(file, join(this.options.tracesDir, `${traceId}.jsonl`)).then(
          () => this.set(withTrace(this.status, name, traceId)),
          (err: Error) =>
            this.options.log?.(`conformance: could not store the ${name} trace: ${err.message}`),
        ),
      );
    };
    try {
      await mkdir(runDir, { recursive: true });
      const report = await runConformance(
        {
          agent: entry.agent(runDir),
          cwd: entry.cwd ?? runDir,
          env: { ...process.env, ...this.options.env, ...entry.env },
          cliCommand: this.options.cliCommand,
          tracesDir: runDir,
          ...(only && { only }),
          ...(this.options.caseTimeoutMs !== undefined && { caseTimeoutMs: this.options.caseTimeoutMs }),
          signal,
        },
        (event) => {
          this.set(applyProgress(this.status, event));
          if (event.kind === "probe") store("probe", event.probe.traceFile);
          if (event.kind === "case-end") store(event.result.name, event.result.traceFile);
        },
      );
      await Promise.all(stored);
      this.set(finishRun(this.status, report.cases, report.summary, new Date().toISOString()));
    } catch (err) {
      await Promise.all(stored);
      this.set(
        failRun(this.status, err instanceof Error ? err.message : String(err), new Date().toISOString()),
      );
    }
  }

  private set(status: ConformanceRunStatus): void {
    this.status = status;
    this.publish();
  }

  private publish(): void {
    const board = this.board();
    for (const l of this.listeners) l(board);
  }
}
