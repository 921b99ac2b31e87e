/**
 * The conformance suite's result model: pure data, shared by the CLI (table, JSON, JUnit) and,
 * later, the app's conformance tab. `runConformance` in `electron/conformance/` produces it.
 */

/** The name of one conformance case (stable: used by `--only`, JSON and JUnit). */
export type CaseName =
  | "key-validation"
  | "retry-same-connection"
  | "retry-after-resume"
  | "retry-after-restart"
  | "retry-while-held"
  | "cancel-held"
  | "retry-after-error"
  | "same-key-other-session"
  | "retry-during-active-work"
  | "keys-private"
  | "different-prompt";

/** The name of one client-conformance case (`conformance --client`; `client/client-case-catalogue.ts`). */
export type ClientCaseName =
  | "key-length"
  | "new-key-same-text"
  | "key-same-prompt"
  | "retry-same-key"
  | "resend-lost-answer"
  | "unkeyed-not-resent"
  | "reconnect-same-key"
  | "resume-after-disconnect"
  | "restart-same-key"
  | "resume-after-restart"
  | "session-new-not-resent";

/**
 * `pass`/`fail`: the case ran; `skip`: it could not apply to this agent or setup (with the reason);
 * `not-run`: it never started because the agent could not be probed (it did not start, or does not
 * speak v2: the cause is in `AgentProbe.problem`, once) or the run was cancelled first.
 */
export type CaseStatus = "pass" | "fail" | "skip" | "not-run";

/** One frame of a trace named as evidence: where it is in the case's trace, and its exact text. */
export interface EvidenceFrame {
  /** The frame's `seq` in the case's (joined) trace. */
  readonly seq: number;
  /** The connection number in the case's trace (1, 2, ...). */
  readonly conn: number;
  readonly dir: "client->agent" | "agent->client";
  readonly ts: number;
  readonly raw: string;
}

/** How one requirement fared in one case. */
export interface RequirementOutcome {
  /** A requirement id of `requirement-catalogue.ts`. */
  readonly id: string;
  /** `skip` also stands for "not reached" (the case stopped at an earlier failure) or a skipped case. */
  readonly status: CaseStatus;
  readonly message: string;
  /** The frames that broke it (failures only): requests with their answers, or the updates at fault. */
  readonly frames?: readonly EvidenceFrame[];
}

/** What one case checks and where the rule comes from. */
export interface CaseDefinition {
  readonly name: CaseName;
  /** A short human title. */
  readonly title: string;
  /** The RFD sentence the case checks, verbatim. */
  readonly rule: string;
  /** Required cases decide the exit status; informative ones are reported only. */
  readonly required: boolean;
  /** Whether the case retries a submission (the `naive` demo agent fails every one of these). */
  readonly retry: boolean;
  /** The requirement ids (`requirement-catalogue.ts`) the case checks; the first is its main one. */
  readonly requirements: readonly string[];
}

/** A case name of either suite. */
export type AnyCaseName = CaseName | ClientCaseName;

/** The result of one case (of the agent suite by default; `CaseResult<ClientCaseName>` for the client suite). */
export interface CaseResult<N extends AnyCaseName = CaseName> {
  readonly name: N;
  readonly title: string;
  readonly rule: string;
  readonly required: boolean;
  readonly status: CaseStatus;
  /** One line: why it passed, failed or was skipped. */
  readonly reason: string;
  /** The case's trace file (connections numbered 1, 2, ...), when one was written. */
  readonly traceFile?: string;
  /** Names of the analyzer's `violation` verdicts found in the trace (empty when none). */
  readonly analyzerViolations: readonly string[];
  readonly durationMs: number;
  /** Each requirement of the case (`CaseDefinition.requirements`, same order), with how it fared. */
  readonly outcomes: readonly RequirementOutcome[];
}

/** How the suite reached the agent under test. */
export type ConformanceTarget =
  | { readonly kind: "stdio"; readonly command: readonly string[]; readonly cwd: string }
  | { readonly kind: "url"; readonly url: string; readonly restartCommand?: string }
  /** The client suite: the client command as given (with its `{agent}` placeholder). */
  | { readonly kind: "client"; readonly command: readonly string[]; readonly cwd: string };

/** What the suite learnt from its first `initialize`. */
export interface AgentProbe {
  /** The version the agent agreed to, or null when initialize failed. */
  readonly protocolVersion: number | null;
  /**
   * `v2`: the agent agreed to v2 and advertises `capabilities.session`, so the cases run;
   * `not-v2`: it answered but without v2 sessions (v1 only, or no `capabilities.session`);
   * `failed`: initialize got no usable answer (timeout, error, the agent exited).
   */
  readonly status: "v2" | "not-v2" | "failed";
  /** The agent's `info` (name, version), when it sent one. */
  readonly info?: { readonly name?: string; readonly version?: string };
  /**
   * The capabilities object the agent answered `initialize` with (`capabilities`, or v1's
   * `agentCapabilities`), as sent; `{ "truncated": true, "bytes": N }` when it was over 64 KiB.
   */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Why the cases cannot run, unless `status` is `v2`. */
  readonly problem?: string;
  /** The probe connection's trace file. */
  readonly traceFile?: string;
  /**
   * Why the agent could not be reached, from the probe's trace (status `failed` only): the spawn
   * error, how the agent exited, and its first stderr lines.
   */
  readonly startup?: AgentStartup;
}

/** What the probe's trace says about an agent that never answered `initialize`. */
export interface AgentStartup {
  /** The tap could not start the command (e.g. `cannot start agent 'x': command not found (ENOENT)`). */
  readonly spawnError?: string;
  /** How the agent process ended, e.g. `exited with code 1` or `killed by SIGKILL`. */
  readonly exit?: string;
  /** The agent's first stderr lines (at most 10). */
  readonly stderr: readonly string[];
}

/** The whole run: what the CLI prints and the app will show (`ConformanceReport<ClientCaseName>`: the client suite). */
export interface ConformanceReport<N extends AnyCaseName = CaseName> {
  readonly tool: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly target: ConformanceTarget;
  readonly tracesDir: string;
  readonly probe: AgentProbe;
  /** Every selected case, in catalogue order. */
  readonly cases: readonly CaseResult<N>[];
  readonly summary: ConformanceSummary;
}

/** Counts and the verdict of the run. */
export interface ConformanceSummary {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Cases that never started (the probe failed, the agent is not v2, or the run was cancelled first). */
  readonly notRun: number;
  /** Required cases that failed. */
  readonly requiredFailed: number;
  /** True when the agent speaks v2 and no required case failed (skips do not fail a run). */
  readonly ok: boolean;
  /** 0 ok; 1 a required case failed or the agent did not answer initialize; 3 the agent does not support v2 (no case ran). */
  readonly exitStatus: 0 | 1 | 3;
}

/** Progress events, in order: `probe`, then `case-start`/`case-end` per case (cases may overlap). */
export type ConformanceProgress<N extends AnyCaseName = CaseName> =
  | { readonly kind: "probe"; readonly probe: AgentProbe }
  | { readonly kind: "case-start"; readonly name: N; readonly title: string }
  | { readonly kind: "case-end"; readonly result: CaseResult<N> };
