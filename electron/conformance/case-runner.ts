/**
 * Runs one case: a fresh dialer (fresh agent processes on stdio), the case's script under its
 * deadline, cleanup, then the analyzer over the case's trace. The script's own checks decide first;
 * an analyzer `violation` verdict fails a case that otherwise passed.
 */

import { VERDICTS } from "../../shared/analyzer/verdicts.js";
import type { CaseDefinition, CaseResult, CaseStatus } from "../../shared/conformance/conformance-result.js";
import { analyzeTraceFile } from "../trace/analyze-trace-file.js";
import { dialerFor } from "./agent-dialers.js";
import { CaseContext } from "./case-context.js";
import { CaseDeadline } from "./case-deadline.js";
import { CaseSkip } from "./case-outcome.js";
import { CASE_SCRIPTS } from "./cases/index.js";
import type { ResolvedOptions } from "./conformance-options.js";
import { settlesWithin } from "./settles-within.js";

/** Extra time the whole script gets beyond the deadline its waits use, as a last safety net. */
const SAFETY_NET_MS = 1000;
const VIOLATIONS = new Set(VERDICTS.filter((v) => v.severity === "violation").map((v) => v.name));

/** Runs `definition` within `limitMs`; never throws. */
export async function runCase(
  definition: CaseDefinition,
  options: ResolvedOptions,
  limitMs: number,
): Promise<CaseResult> {
  const started = Date.now();
  const dialer = dialerFor(options, definition.name);
  const deadline = new CaseDeadline(limitMs);
  const ctx = new CaseContext(definition.name, dialer, deadline, options.cwd);
  let status: CaseStatus;
  let reason: string;
  try {
    const script = untilCancelled(CASE_SCRIPTS[definition.name].run(ctx), options.signal);
    reason = await new CaseDeadline(limitMs + SAFETY_NET_MS).within(script, "the case to finish");
    status = "pass";
  } catch (err) {
    status = err instanceof CaseSkip ? "skip" : "fail";
    reason = err instanceof Error ? err.message : String(err);
  }
  let traceFile: string | undefined;
  const finished = settlesWithin(ctx.closeAll(), 5000)
    .then(dialer.finish.bind(dialer))
    .then((path) => {
      traceFile = path;
    });
  if (!(await settlesWithin(finished, 10_000))) reason += " (cleanup did not finish in 10 s)";
  let analyzerViolations: string[] = [];
  if (traceFile !== undefined) {
    try {
      const { model } = await analyzeTraceFile(traceFile);
      analyzerViolations = Object.entries(model.verdictCounts)
        .filter(([name, count]) => VIOLATIONS.has(name as never) && count > 0)
        .map(([name]) => name);
    } catch (err) {
      reason += ` (the trace could not be analyzed: ${err instanceof Error ? err.message : String(err)})`;
    }
  }
  if (status === "pass" && analyzerViolations.length > 0) {
    status = "fail";
    reason = `the analyzer found ${analyzerViolations.join(", ")} in the trace (the case's own checks passed: ${reason})`;
  }
  return {
    name: definition.name,
    title: definition.title,
    rule: definition.rule,
    required: definition.required,
    status,
    reason: oneLine(reason),
    traceFile,
    analyzerViolations,
    durationMs: Date.now() - started,
  };
}

/** `script`, or a skip as soon as the run is cancelled (the cleanup then ends the case's connections). */
function untilCancelled(script: Promise<string>, signal: AbortSignal | undefined): Promise<string> {
  if (!signal) return script;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new CaseSkip("cancelled while it ran"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    script.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
