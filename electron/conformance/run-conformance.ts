/**
 * The library entry of the conformance suite: probe the agent, run the selected cases (a few at a
 * time, each with fresh agent processes or connections and its own trace), and return the report
 * the CLI prints and the app will show.
 */

import { mkdirSync } from "node:fs";
import { CONFORMANCE_CASES } from "../../shared/conformance/case-catalogue.js";
import type {
  CaseDefinition,
  CaseResult,
  ConformanceProgress,
  ConformanceReport,
  ConformanceTarget,
} from "../../shared/conformance/conformance-result.js";
import { summarize } from "../../shared/conformance/conformance-summary.js";
import { PRIVATE_DIR_MODE } from "../trace/private-files.js";
import { SUITE_TOOL } from "./agent-dialers.js";
import { probeAgent } from "./agent-probe.js";
import { runCase } from "./case-runner.js";
import { type ConformanceOptions, type ResolvedOptions, resolveOptions } from "./conformance-options.js";

/** Runs the conformance suite against one agent; `onProgress` sees the probe and every case start and end. */
export async function runConformance(
  options: ConformanceOptions,
  onProgress: (event: ConformanceProgress) => void = () => undefined,
): Promise<ConformanceReport> {
  const started = Date.now();
  const resolved = resolveOptions(options);
  // Private: the traces hold every prompt of the run (an existing folder is the caller's to choose).
  mkdirSync(resolved.tracesDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const selected = CONFORMANCE_CASES.filter((c) => !resolved.only || resolved.only.includes(c.name));
  const probe = await probeAgent(resolved);
  onProgress({ kind: "probe", probe });
  let cases: CaseResult[];
  if (probe.status !== "v2") {
    // The cause is said once, in `probe.problem`; every case is "not run", not failed.
    const reason =
      probe.status === "not-v2"
        ? "not run: v2 not supported"
        : "not run: the agent did not answer initialize";
    cases = selected.map((definition) => notRun(definition, "not-run", reason));
    for (const result of cases) onProgress({ kind: "case-end", result });
  } else {
    // A remote agent is shared by every case: restarting it must not cut the other cases' connections.
    const alone =
      resolved.agent.kind === "url" ? selected.filter((c) => c.name === "retry-after-restart") : [];
    const together = selected.filter((c) => !alone.includes(c));
    const results = [
      ...(await runAll(together, resolved, started, onProgress)),
      ...(await runAll(alone, resolved, started, onProgress)),
    ];
    cases = selected.map((c) => results.find((r) => r.name === c.name) as CaseResult);
  }
  return {
    tool: SUITE_TOOL,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    target: targetOf(resolved),
    tracesDir: resolved.tracesDir,
    probe,
    cases,
    summary: summarize(probe, cases),
  };
}

/** Runs cases `concurrency` at a time; a case that cannot start before the suite's limit fails as such. */
async function runAll(
  selected: readonly CaseDefinition[],
  options: ResolvedOptions,
  started: number,
  onProgress: (event: ConformanceProgress) => void,
): Promise<CaseResult[]> {
  const results = new Map<string, CaseResult>();
  const queue = [...selected];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const left = started + options.suiteTimeoutMs - Date.now();
      let result: CaseResult;
      if (options.signal?.aborted) {
        result = notRun(next, "not-run", "not run: the run was cancelled");
      } else if (left <= 0) {
        result = notRun(
          next,
          "fail",
          `not run: the suite's time limit of ${options.suiteTimeoutMs} ms was reached`,
        );
      } else {
        onProgress({ kind: "case-start", name: next.name, title: next.title });
        result = await runCase(next, options, Math.min(options.caseTimeoutMs, left));
      }
      results.set(next.name, result);
      onProgress({ kind: "case-end", result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, selected.length) }, worker));
  return selected.map((c) => results.get(c.name) as CaseResult);
}

function notRun(definition: CaseDefinition, status: "not-run" | "fail", reason: string): CaseResult {
  return {
    outcomes: definition.requirements.map((id) => ({ id, status, message: reason })),
    name: definition.name,
    title: definition.title,
    rule: definition.rule,
    required: definition.required,
    status,
    reason,
    analyzerViolations: [],
    durationMs: 0,
  };
}

function targetOf(options: ResolvedOptions): ConformanceTarget {
  return options.agent.kind === "stdio"
    ? { kind: "stdio", command: options.agent.command, cwd: options.cwd }
    : { kind: "url", url: options.agent.url, restartCommand: options.agent.restartCommand };
}
