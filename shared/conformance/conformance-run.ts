/**
 * A conformance run as the app shows it: the agents a UI may pick (only ones the hub's own command
 * line, its local config or its built-in demo agent named), the run's state case by case, and the
 * pure steps that move it along as the suite reports progress. The hub (`electron/hub/`) owns the
 * run and pushes this status to every UI as a `conformance-status` message.
 */

import { CONFORMANCE_CASES } from "./case-catalogue.js";
import type {
  AgentProbe,
  CaseName,
  CaseResult,
  ConformanceProgress,
  ConformanceSummary,
} from "./conformance-result.js";
import type { StressRunStatus } from "./stress/stress-board.js";

/** Version of the conformance messages; bumped on incompatible changes. */
export const CONFORMANCE_WIRE_VERSION = 1;

/** Where an agent choice comes from: never from a UI. */
export type AgentChoiceSource = "built-in" | "argv" | "config";

/** One agent a UI may run the suite against, by id. */
export interface AgentChoice {
  /** Stable within one hub run; what a UI sends back to start a run. */
  readonly id: string;
  readonly label: string;
  readonly source: AgentChoiceSource;
  /** What will be started or dialled, as text for the confirmation: the command line or the URL. */
  readonly target: string;
  /** The working directory of a command, when it has one. */
  readonly cwd?: string;
  /** One line for the picker, e.g. what a built-in mode is expected to do. */
  readonly note?: string;
}

/** Where one case stands in a run. */
export type CaseRunState = "waiting" | "running" | "pass" | "fail" | "skip" | "not-run";

/** One case's row in a run. */
export interface CaseRow {
  readonly name: CaseName;
  readonly title: string;
  readonly rule: string;
  readonly required: boolean;
  readonly state: CaseRunState;
  readonly reason?: string;
  readonly durationMs?: number;
  /** The hub trace id of the case's trace, once the hub stored it (open it with `readTrace`). */
  readonly traceId?: string;
}

/** The run's state: `idle` before the first run; `cancelling` waits for running cases to end. */
export type RunState = "idle" | "running" | "cancelling" | "done" | "cancelled" | "error";

/** The state of the hub's conformance run, pushed to every UI on each change. */
export interface ConformanceRunStatus {
  readonly v: number;
  readonly state: RunState;
  readonly runId?: string;
  readonly agent?: AgentChoice;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly probe?: AgentProbe;
  /** The hub trace id of the probe connection's trace. */
  readonly probeTraceId?: string;
  readonly cases: readonly CaseRow[];
  readonly summary?: ConformanceSummary;
  /** Why the run could not start or broke off (`error`), in one line. */
  readonly error?: string;
  /** The folder holding every trace of the run, on the hub's machine. */
  readonly tracesDir?: string;
}

/** What a UI receives: the choices, a problem with the local config if any, and the run. */
export interface ConformanceBoard {
  readonly choices: readonly AgentChoice[];
  /** Why the local agents config could not be read (its agents are then missing from `choices`). */
  readonly configProblem?: string;
  readonly run: ConformanceRunStatus;
  /** The stress run (`conformance --stress` in the app), when the hub offers one. */
  readonly stress?: StressRunStatus;
}

/** A UI's request to start a run. */
export interface ConformanceStart {
  readonly agent: string;
  /** Run only these cases (default: all). */
  readonly only?: readonly CaseName[];
}

/** The status before any run. */
export const IDLE_RUN: ConformanceRunStatus = { v: CONFORMANCE_WIRE_VERSION, state: "idle", cases: [] };

/** Whether a run in this state still has cases going. */
export function isActive(state: RunState): boolean {
  return state === "running" || state === "cancelling";
}

/** A new run's status: the selected cases waiting, in catalogue order. */
export function startRun(
  runId: string,
  agent: AgentChoice,
  startedAt: string,
  tracesDir: string,
  only?: readonly CaseName[],
): ConformanceRunStatus {
  return {
    v: CONFORMANCE_WIRE_VERSION,
    state: "running",
    runId,
    agent,
    startedAt,
    tracesDir,
    cases: CONFORMANCE_CASES.filter((c) => !only || only.includes(c.name)).map((c) => ({
      name: c.name,
      title: c.title,
      rule: c.rule,
      required: c.required,
      state: "waiting",
    })),
  };
}

function withCase(
  status: ConformanceRunStatus,
  name: CaseName,
  change: (row: CaseRow) => CaseRow,
): ConformanceRunStatus {
  return { ...status, cases: status.cases.map((row) => (row.name === name ? change(row) : row)) };
}

/** The status after one progress event of the suite. */
export function applyProgress(
  status: ConformanceRunStatus,
  event: ConformanceProgress,
): ConformanceRunStatus {
  switch (event.kind) {
    case "probe":
      return { ...status, probe: event.probe };
    case "case-start":
      return withCase(status, event.name, (row) => ({ ...row, state: "running" }));
    case "case-end":
      return withCase(status, event.result.name, (row) => ({
        ...row,
        state: event.result.status,
        reason: event.result.reason,
        durationMs: event.result.durationMs,
      }));
  }
}

/** The status once the hub stored a case's (or, for `"probe"`, the probe's) trace under `traceId`. */
export function withTrace(
  status: ConformanceRunStatus,
  name: CaseName | "probe",
  traceId: string,
): ConformanceRunStatus {
  return name === "probe"
    ? { ...status, probeTraceId: traceId }
    : withCase(status, name, (r) => ({ ...r, traceId }));
}

/** The status once the suite returned: `done`, or `cancelled` when a cancel was asked for. */
export function finishRun(
  status: ConformanceRunStatus,
  cases: readonly CaseResult[],
  summary: ConformanceSummary,
  finishedAt: string,
): ConformanceRunStatus {
  let next = status;
  for (const result of cases) next = applyProgress(next, { kind: "case-end", result });
  return {
    ...next,
    state: status.state === "cancelling" ? "cancelled" : "done",
    summary,
    finishedAt,
  };
}

/** The status when the run broke off with an error. */
export function failRun(
  status: ConformanceRunStatus,
  error: string,
  finishedAt: string,
): ConformanceRunStatus {
  return {
    ...status,
    state: "error",
    error,
    finishedAt,
    cases: status.cases.map((row) =>
      row.state === "waiting" || row.state === "running" ? { ...row, state: "fail", reason: error } : row,
    ),
  };
}

/** How many of the run's cases have ended. */
export function casesDone(status: ConformanceRunStatus): number {
  return status.cases.filter((c) => c.state !== "waiting" && c.state !== "running").length;
}

const CASE_NAMES = new Set<string>(CONFORMANCE_CASES.map((c) => c.name));
const CHOICE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,100}$/;

/** Validates an untrusted start request; a message saying what is wrong when it is not one. */
export function parseConformanceStart(v: unknown): ConformanceStart | { readonly error: string } {
  if (v === null || typeof v !== "object" || Array.isArray(v))
    return { error: "the request must be an object" };
  const m = v as Record<string, unknown>;
  if (typeof m.agent !== "string" || !CHOICE_ID.test(m.agent))
    return { error: "agent must be an agent choice id" };
  if (m.only === undefined) return { agent: m.agent };
  if (!Array.isArray(m.only) || m.only.length === 0)
    return { error: "only must be a non-empty list of case names" };
  const unknown = m.only.filter((n) => typeof n !== "string" || !CASE_NAMES.has(n));
  if (unknown.length > 0) return { error: `unknown case ${JSON.stringify(unknown[0])}` };
  return { agent: m.agent, only: [...new Set(m.only as CaseName[])] };
}
