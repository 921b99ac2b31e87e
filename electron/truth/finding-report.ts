/** A false statement the oracle found, in words: the (shrunk) schedule, the claim, ground truth and the trace. */

import type { FalseStatement } from "./compare.js";
import { printTruthSchedule, type TruthSchedule } from "./truth-schedule.js";

/** One finding: a schedule whose run made the analyzer say something false. */
export interface TruthFinding {
  readonly schedule: TruthSchedule;
  /** The schedule the shrinker started from, when it shrank. */
  readonly original?: TruthSchedule;
  readonly falseStatements: readonly FalseStatement[];
  readonly traceFile: string;
}

/** The finding as text: one line for the schedule and trace, one per false statement. */
export function describeFinding(f: TruthFinding): string {
  const head = [
    `schedule ${printTruthSchedule(f.schedule)}`,
    ...(f.original ? [`(shrunk from ${printTruthSchedule(f.original)})`] : []),
    `trace ${f.traceFile}`,
  ].join(" ");
  const lines = f.falseStatements.map(
    (s) => `  key ${s.key ?? "(none)"}: ${s.claim}: the analyzer said "${s.said}"; ground truth: ${s.truth}`,
  );
  return [head, ...lines].join("\n");
}

/** The claim kinds of a list of false statements (what a shrink must keep). */
export function claimKinds(statements: readonly FalseStatement[]): Set<string> {
  return new Set(statements.map((s) => s.claim.replace(/^attempt .*?(: |$)/, "attempt$1")));
}
