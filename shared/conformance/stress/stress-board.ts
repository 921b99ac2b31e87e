/**
 * The app's stress run as the hub pushes it (inside the conformance board, `stress`): which agent,
 * how many runs, each run's result as it ends, and the shrunk failure with the hub trace id of the
 * minimal failing trace. Pure steps move it along as the runner reports progress.
 */

import type { StressFailure, StressProgress, StressRunResult } from "./stress-result.js";

/** Where the stress run stands (the conformance run's states; `cancelling` waits for running runs to end). */
export type StressState = "idle" | "running" | "cancelling" | "done" | "cancelled" | "error";

/** The agent a stress run is against: an agent choice of the conformance board (by id, with its label and command). */
export interface StressAgent {
  readonly id: string;
  readonly label: string;
  readonly target: string;
}

/** The most runs one app stress run takes. */
export const MAX_APP_STRESS_RUNS = 500;

/** A UI's request to start a stress run: an agent choice by id, how many schedules, and optionally the seed. */
export interface StressStart {
  readonly agent: string;
  readonly runs: number;
  readonly seed?: number;
}

/** One run's row (the schedule and its verdict). */
export type StressRow = Pick<
  StressRunResult,
  "index" | "schedule" | "faults" | "status" | "reason" | "durationMs"
>;

/** The hub's stress run, pushed to every UI on each change. */
export interface StressRunStatus {
  readonly state: StressState;
  readonly runId?: string;
  readonly agent?: StressAgent;
  readonly seed?: number;
  readonly total: number;
  /** Ended runs, in the order they ended. */
  readonly rows: readonly StressRow[];
  /** `shrinking` while the first failure is being shrunk: the schedule tried last. */
  readonly shrinking?: { readonly index: number; readonly tried: number; readonly last?: string };
  /** The shrunk failure, and the hub trace id of its trace once stored. */
  readonly failure?: StressFailure & { readonly traceId?: string };
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly error?: string;
  readonly tracesDir?: string;
}

/** Before the first stress run. */
export const IDLE_STRESS: StressRunStatus = { state: "idle", total: 0, rows: [] };

/** A new run. */
export function startStress(
  runId: string,
  agent: StressAgent,
  request: StressStart,
  seed: number,
  startedAt: string,
  tracesDir: string,
): StressRunStatus {
  return {
    state: "running",
    runId,
    agent: { id: agent.id, label: agent.label, target: agent.target },
    seed,
    total: request.runs,
    rows: [],
    startedAt,
    tracesDir,
  };
}

/** The status after one progress event. */
export function applyStressProgress(status: StressRunStatus, event: StressProgress): StressRunStatus {
  switch (event.kind) {
    case "run-end": {
      const { index, schedule, faults, status: s, reason, durationMs } = event.result;
      return {
        ...status,
        rows: [...status.rows, { index, schedule, faults, status: s, reason, durationMs }],
      };
    }
    case "shrink-start":
      return { ...status, shrinking: { index: event.index, tried: 0 } };
    case "shrink-try":
      return {
        ...status,
        shrinking: { index: event.index, tried: (status.shrinking?.tried ?? 0) + 1, last: event.schedule },
      };
    case "shrink-end":
      return { ...status, shrinking: undefined, failure: event.failure };
  }
}

/** The status once the runner returned. */
export function finishStress(status: StressRunStatus, finishedAt: string): StressRunStatus {
  return {
    ...status,
    state: status.state === "cancelling" ? "cancelled" : "done",
    finishedAt,
    shrinking: undefined,
  };
}

/** The status when the run broke off. */
export function failStress(status: StressRunStatus, error: string, finishedAt: string): StressRunStatus {
  return { ...status, state: "error", error, finishedAt, shrinking: undefined };
}

/** Whether a stress run is going. */
export function isStressActive(status: StressRunStatus): boolean {
  return status.state === "running" || status.state === "cancelling";
}

/** Counts of the ended runs. */
export function stressCounts(status: StressRunStatus): {
  readonly done: number;
  readonly passed: number;
  readonly failed: number;
} {
  const failed = status.rows.filter((r) => r.status === "fail").length;
  return { done: status.rows.length, passed: status.rows.length - failed, failed };
}

const CHOICE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,100}$/;

/** Validates an untrusted stress start request; a message saying what is wrong when it is not one. */
export function parseStressStart(v: unknown): StressStart | { readonly error: string } {
  if (v === null || typeof v !== "object" || Array.isArray(v))
    return { error: "the request must be an object" };
  const m = v as Record<string, unknown>;
  if (typeof m.agent !== "string" || !CHOICE_ID.test(m.agent))
    return { error: "agent must be an agent choice id" };
  if (typeof m.runs !== "number" || !Number.isInteger(m.runs) || m.runs < 1 || m.runs > MAX_APP_STRESS_RUNS)
    return { error: `runs must be an integer from 1 to ${MAX_APP_STRESS_RUNS}` };
  if (m.seed === undefined) return { agent: m.agent, runs: m.runs };
  if (typeof m.seed !== "number" || !Number.isInteger(m.seed) || m.seed < 0 || m.seed > 0xffffffff)
    return { error: "seed must be an integer from 0 to 4294967295" };
  return { agent: m.agent, runs: m.runs, seed: m.seed };
}
