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
  /**
   * The other schedules whose clients ran through the same tap, into the same trace, when it ran in a
   * batch: a false statement that needs them (e.g. two connections' records interleaved) does not
   * shrink, since every shrink candidate runs alone.
   */
  readonly batchmates?: readonly TruthSchedule[];
}

/** The finding as text: one line for the schedule and trace, one per false statement. */
export function describeFinding(f: TruthFinding): string {
  const head = [
    `schedule ${printTruthSchedule(f.schedule)}`,
    ...(f.original ? [`(shrunk from ${printTruthSchedule(f.original)})`] : []),
    `trace ${f.traceFile}`,
  ].join(" ");
  const mates = f.batchmates ?? [];
  const batch =
    mates.length > 0
      ? [
          `  (that trace also holds ${mates.length} other schedule(s) run through the same tap: ${mates.map(printTruthSchedule).join(" ; ")})`,
        ]
      : [];
  const lines = f.falseStatements.map(
    (s) => `  key ${s.key ?? "(none)"}: ${s.claim}: the analyzer said "${s.said}"; ground truth: ${s.truth}`,
  );
  return [head, ...batch, ...lines].join("\n");
}

/** The claim kinds of a list of false statements (what a shrink must keep). */
export function claimKinds(statements: readonly FalseStatement[]): Set<string> {
  return new Set(statements.map((s) => s.claim.replace(/^attempt .*?(: |$)/, "attempt$1")));
}
