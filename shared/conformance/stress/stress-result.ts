/** What a stress run reports (CLI `--json`, the library, the app's Stress section). Plain data. */

import type { InvariantViolation } from "./invariants.js";

/** One schedule's run. */
export interface StressRunResult {
  /** 0, 1, ... in the order the schedules were generated. */
  readonly index: number;
  /** The schedule, in its text form (`--schedule`). */
  readonly schedule: string;
  readonly faults: number;
  readonly status: "pass" | "fail";
  /** Broken invariants (empty on a pass). */
  readonly violations: readonly InvariantViolation[];
  /** One line: what went wrong (or `all invariants held`), and anything else worth saying (a timeout). */
  readonly reason: string;
  /** The run's trace, kept for a failure (a passing run's trace is removed unless asked to keep it). */
  readonly traceFile?: string;
  readonly durationMs: number;
}

/** A failing run, shrunk. */
export interface StressFailure {
  /** The run that failed first (its `index`). */
  readonly index: number;
  readonly schedule: string;
  /** The smallest schedule seen failing, in its text form. */
  readonly shrunk: string;
  readonly shrunkFaults: number;
  /** The shrunk run's violations. */
  readonly violations: readonly InvariantViolation[];
  /** The shrunk run's trace: the minimal failing trace. */
  readonly traceFile?: string;
  /** Candidates the shrinker ran. */
  readonly tries: number;
  /** The command that runs the shrunk schedule again. */
  readonly reproduce: string;
}

/** Progress events while a stress run goes on. */
export type StressProgress =
  | {
      readonly kind: "run-end";
      readonly result: StressRunResult;
      readonly done: number;
      readonly total: number;
    }
  | { readonly kind: "shrink-start"; readonly index: number; readonly schedule: string }
  | {
      readonly kind: "shrink-try";
      readonly index: number;
      readonly schedule: string;
      readonly failed: boolean;
    }
  | { readonly kind: "shrink-end"; readonly failure: StressFailure };

/** The whole report. */
export interface StressReport {
  readonly tool: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly seed: number;
  readonly agentCommand: readonly string[];
  readonly tracesDir: string;
  readonly runs: readonly StressRunResult[];
  readonly failures: readonly StressFailure[];
  readonly summary: {
    readonly runs: number;
    readonly passed: number;
    readonly failed: number;
    readonly ok: boolean;
    /** 0 every run passed, 1 a run failed. */
    readonly exitStatus: 0 | 1;
  };
}
