/** The verdict of a conformance run, from its case results: counts and the exit status. */

import type { AgentProbe, AnyCaseName, CaseResult, ConformanceSummary } from "./conformance-result.js";

/** Counts the results; ok when the agent speaks v2 and no required case failed (skips don't fail a run). */
export function summarize(probe: AgentProbe, cases: readonly CaseResult<AnyCaseName>[]): ConformanceSummary {
  const count = (status: CaseResult["status"]) => cases.filter((c) => c.status === status).length;
  const requiredFailed = cases.filter((c) => c.required && c.status === "fail").length;
  const ok = probe.status === "v2" && requiredFailed === 0;
  return {
    passed: count("pass"),
    failed: count("fail"),
    skipped: count("skip"),
    notRun: count("not-run"),
    requiredFailed,
    ok,
    exitStatus: probe.status === "not-v2" ? 3 : ok ? 0 : 1,
  };
}
