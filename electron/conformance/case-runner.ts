/**
 * Runs one case: a fresh dialer (fresh agent processes on stdio), the case's script under its
 * deadline, cleanup, then the analyzer over the case's trace. The script's own checks decide first;
 * an analyzer `violation` verdict fails a case that otherwise passed. A failure's reason names the
 * requirement it breaks (id and rule) and the frames that broke it, found in the case's trace. A
 * bounded wait that ran out before the case could test its rule (a timeout no step blamed on a
 * rule) fails the case as "not reached: ..." with the frames it waited on, and blames no rule.
 */

import { VERDICTS } from "../../shared/analyzer/verdicts.js";
import type {
  CaseDefinition,
  CaseResult,
  CaseStatus,
  RequirementOutcome,
} from "../../shared/conformance/conformance-result.js";
import { requirement } from "../../shared/conformance/requirement-catalogue.js";
import { analyzeTraceFile } from "../trace/analyze-trace-file.js";
import { dialerFor } from "./agent-dialers.js";
import { CaseContext } from "./case-context.js";
import { CaseDeadline } from "./case-deadline.js";
import { CaseFailure, CaseSkip, CaseTimeout, type FrameRef } from "./case-outcome.js";
import { CASE_SCRIPTS } from "./cases/index.js";
import type { ResolvedOptions } from "./conformance-options.js";
import { describeFrames, resolveFrames } from "./frame-evidence.js";
import { settlesWithin } from "./settles-within.js";

/** Extra time the whole script gets beyond the deadline its waits use, as a last safety net. */
const SAFETY_NET_MS = 1000;
const VIOLATIONS = new Set(VERDICTS.filter((v) => v.severity === "violation").map((v) => v.name));

/** The requirement an analyzer violation breaks (when the case checks it). */
const VIOLATION_REQUIREMENT: Record<string, string> = {
  "duplicate-insert": "idem.insert.once",
  "key-leaked": "idem.keys.private",
  "cancel-not-propagated": "idem.cancel.withdraws-all",
};

interface Broken {
  readonly id: string;
  readonly message: string;
  readonly frames: readonly FrameRef[];
}

/** Runs `definition` within `limitMs`; never throws. */
export async function runCase(
  definition: CaseDefinition,
  options: ResolvedOptions,
  limitMs: number,
): Promise<CaseResult> {
  const started = Date.now();
  const dialer = dialerFor(options, definition.name);
  // The safety net's clock stands still with the case's while a connection starts (`setup`).
  const guard = new CaseDeadline(limitMs + SAFETY_NET_MS);
  const deadline = new CaseDeadline(limitMs, guard);
  const ctx = new CaseContext(definition.name, dialer, deadline, options.cwd);
  const main = definition.requirements[0] as string;
  const own = (id: string | undefined) =>
    id !== undefined && definition.requirements.includes(id) ? id : main;
  let status: CaseStatus;
  let reason: string;
  const broken: Broken[] = [];
  /** A bounded wait ran out before the case got to test its rule: no rule is blamed. */
  let notReached: { readonly message: string; readonly frames: readonly FrameRef[] } | undefined;
  try {
    const script = untilCancelled(CASE_SCRIPTS[definition.name].run(ctx), options.signal);
    reason = await guard.within(script, "the case to finish");
    status = "pass";
  } catch (err) {
    status = err instanceof CaseSkip ? "skip" : "fail";
    reason = err instanceof Error ? err.message : String(err);
    const evidence = err instanceof CaseFailure ? err.evidence : {};
    if (status === "fail" && err instanceof CaseTimeout && evidence.requirement === undefined) {
      notReached = { message: reason, frames: evidence.frames ?? [] };
      for (const [rid, o] of ctx.outcomes)
        if (o.status === "fail") broken.push({ id: own(rid), message: o.message, frames: o.frames ?? [] });
    } else if (status === "fail") {
      const id = own(evidence.requirement);
      // Failures recorded on the way (key-validation tries every bad key) come first, then the one that ended the case.
      for (const [rid, o] of ctx.outcomes)
        if (o.status === "fail" && rid !== id)
          broken.push({ id: own(rid), message: o.message, frames: o.frames ?? [] });
      const recorded = ctx.outcomes.get(id);
      broken.push({
        id,
        message: reason,
        frames: evidence.frames ?? (recorded?.status === "fail" ? (recorded.frames ?? []) : []),
      });
    }
  }
  let traceFile: string | undefined;
  const finished = settlesWithin(ctx.closeAll(), 5000)
    .then(dialer.finish.bind(dialer))
    .then((path) => {
      traceFile = path;
    });
  const remarks = [...ctx.remarks];
  if (!(await settlesWithin(finished, 10_000))) remarks.push("cleanup did not finish in 10 s");
  let analyzerViolations: string[] = [];
  if (traceFile !== undefined) {
    try {
      const { model } = await analyzeTraceFile(traceFile);
      analyzerViolations = Object.entries(model.verdictCounts)
        .filter(([name, count]) => VIOLATIONS.has(name as never) && count > 0)
        .map(([name]) => name);
    } catch (err) {
      remarks.push(`the trace could not be analyzed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (status === "pass" && analyzerViolations.length > 0) {
    status = "fail";
    reason = `the analyzer found ${analyzerViolations.join(", ")} in the trace (the case's own checks passed: ${reason})`;
    broken.push({
      id: own(VIOLATION_REQUIREMENT[analyzerViolations[0] as string]),
      message: reason,
      frames: [],
    });
  }
  const outcomes: RequirementOutcome[] = [];
  const parts: string[] = [];
  const failedIds = new Set(broken.map((b) => b.id));
  let notReachedWords: string | undefined;
  if (notReached) {
    const resolved = traceFile
      ? await resolveFrames(traceFile, notReached.frames)
      : notReached.frames.map((ref) => ({ ref, frames: [] }));
    const frames = describeFrames(resolved);
    notReachedWords = `not reached: ${notReached.message}${frames ? ` (frames ${frames})` : ""}`;
  }
  for (const id of definition.requirements) {
    const mine = broken.filter((b) => b.id === id);
    if (mine.length > 0) {
      const resolved = traceFile
        ? await resolveFrames(
            traceFile,
            mine.flatMap((b) => b.frames),
          )
        : mine.flatMap((b) => b.frames).map((ref) => ({ ref, frames: [] }));
      const frames = describeFrames(resolved);
      const message = mine.map((b) => b.message).join("; ");
      const rule = requirement(id);
      parts.push(`${message} [breaks ${id}: ${rule.summary}${frames ? `; frames ${frames}` : ""}]`);
      outcomes.push({
        id,
        status: "fail",
        message: `${message}${frames ? ` (frames ${frames})` : ""}`,
        frames: resolved.flatMap((r) => r.frames),
      });
      continue;
    }
    const recorded = ctx.outcomes.get(id);
    if (recorded?.status === "skip") outcomes.push({ id, status: "skip", message: recorded.message });
    else if (status === "pass") outcomes.push({ id, status: "pass", message: recorded?.message ?? reason });
    else if (status === "skip") outcomes.push({ id, status: "skip", message: reason });
    else if (recorded?.status === "pass") outcomes.push({ id, status: "pass", message: recorded.message });
    else if (notReachedWords) outcomes.push({ id, status: "skip", message: notReachedWords });
    else
      outcomes.push({
        id,
        status: "skip",
        message: `not reached: the case stopped at ${[...failedIds].join(", ")}`,
      });
  }
  if (status === "fail") reason = [notReachedWords, ...parts].filter((p) => p !== undefined).join("; ");
  if (remarks.length > 0) reason += ` (${remarks.join("; ")})`;
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
    outcomes,
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
