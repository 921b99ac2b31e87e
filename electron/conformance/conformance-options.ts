/** The options of a conformance run, with their defaults. */

import { join } from "node:path";
import type { CaseName } from "../../shared/conformance/conformance-result.js";
import { defaultTraceDir } from "../trace/default-trace-path.js";

/** The agent under test: a command the suite spawns (through the tap), or a URL it dials. */
export type AgentUnderTest =
  | { readonly kind: "stdio"; readonly command: readonly string[] }
  | { readonly kind: "url"; readonly url: string; readonly restartCommand?: string };

/** Everything `runConformance` takes. */
export interface ConformanceOptions {
  readonly agent: AgentUnderTest;
  /** Working directory of the agent processes and of the sessions (default: the current one). */
  readonly cwd?: string;
  /** Environment of the agent processes (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** How to run this tool's CLI for the tap (default: this process's node and script). */
  readonly cliCommand?: readonly string[];
  /** Where traces go (default: a new `conformance-<time>` folder in the default trace folder). */
  readonly tracesDir?: string;
  /** Run only these cases (default: all). */
  readonly only?: readonly CaseName[];
  /** Time limit of one case, ms (default 20000). */
  readonly caseTimeoutMs?: number;
  /** Time limit of the whole run, ms (default 300000); cases not finished by then fail. */
  readonly suiteTimeoutMs?: number;
  /** Cases run at the same time (default 3). */
  readonly concurrency?: number;
  /** Receives the agent's stderr lines, `[case] line`. */
  readonly onAgentStderr?: (caseName: string, line: string) => void;
  /** Cancels the run: cases not yet started are skipped; running ones end within their limit. */
  readonly signal?: AbortSignal;
}

/** The options with every default filled in. */
export interface ResolvedOptions
  extends Required<Omit<ConformanceOptions, "only" | "onAgentStderr" | "signal">> {
  readonly only?: readonly CaseName[];
  readonly onAgentStderr?: (caseName: string, line: string) => void;
  readonly signal?: AbortSignal;
}

/** Default time limit of one case, ms. */
export const DEFAULT_CASE_TIMEOUT_MS = 20_000;
/** Default time limit of a run, ms. */
export const DEFAULT_SUITE_TIMEOUT_MS = 300_000;
/** Default number of cases run at the same time. */
export const DEFAULT_CONCURRENCY = 3;

/** A folder name for one run's traces, e.g. `conformance-20260131T120501Z-4242`. */
export function runFolderName(start: Date = new Date()): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `conformance-${stamp}-${process.pid}`;
}

/** Fills in the defaults. */
export function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  const script = process.argv[1];
  return {
    agent: options.agent,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    cliCommand: options.cliCommand ?? [process.execPath, ...(script ? [script] : [])],
    tracesDir: options.tracesDir ?? join(defaultTraceDir(), runFolderName()),
    only: options.only,
    caseTimeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
    suiteTimeoutMs: options.suiteTimeoutMs ?? DEFAULT_SUITE_TIMEOUT_MS,
    concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
    onAgentStderr: options.onAgentStderr,
    signal: options.signal,
  };
}
