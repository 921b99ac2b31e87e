/**
 * What the demo knows at a moment, from both ends: the demo client's submissions and connections,
 * and the analyzer's judgement of the tap's trace. Scenario conditions are checked against it.
 */
import type { OutcomeKind } from "../analyzer/timeline-model.js";
import type { VerdictName } from "../analyzer/verdicts.js";
import type { SubmissionLabel, WaitCondition } from "./scenario.js";

/** One submission as the demo client tracks it. */
export interface SubmissionFacts {
  /** The key, or null for an unkeyed submission. */
  readonly key: string | null;
  readonly status: "pending" | "answered" | "failed" | "stale";
  readonly attempts: number;
  readonly messageIds: readonly string[];
}

/** One keyed submission as the analyzer judged it from the trace. */
export interface AnalyzedSubmission {
  readonly verdicts: readonly VerdictName[];
  readonly outcomes: readonly OutcomeKind[];
  readonly inserts: number;
}

/** The facts scenario conditions read. */
export interface DemoFacts {
  /** The submissions a scenario labelled. */
  readonly submissions: Readonly<Record<SubmissionLabel, SubmissionFacts>>;
  /** Connections the demo client opened in this run. */
  readonly connections: number;
  /** Deploys (tool calls) the client saw live in this run. */
  readonly deploys: number;
  /** Fault applications recorded in this run's trace. */
  readonly faultsApplied: number;
  /** The analyzer's view, by idempotency key. */
  readonly analyzed: Readonly<Record<string, AnalyzedSubmission>>;
}

/** Facts before anything happened. */
export const NO_FACTS: DemoFacts = {
  submissions: {},
  connections: 0,
  deploys: 0,
  faultsApplied: 0,
  analyzed: {},
};

function analyzedOf(facts: DemoFacts, label: SubmissionLabel): AnalyzedSubmission | undefined {
  const key = facts.submissions[label]?.key;
  return key ? facts.analyzed[key] : undefined;
}

/** Whether `condition` holds in `facts`. */
export function conditionHolds(condition: WaitCondition, facts: DemoFacts): boolean {
  switch (condition.kind) {
    case "fault-applied":
      return facts.faultsApplied >= condition.atLeast;
    case "attempts":
      return (facts.submissions[condition.label]?.attempts ?? 0) >= condition.atLeast;
    case "answered":
      return facts.submissions[condition.label]?.status === "answered";
    case "failed":
      return facts.submissions[condition.label]?.status === "failed";
    case "connections":
      return facts.connections >= condition.atLeast;
    case "deploys":
      return facts.deploys >= condition.atLeast;
    case "verdict":
      return analyzedOf(facts, condition.label)?.verdicts.includes(condition.verdict) ?? false;
    case "all-cancelled": {
      const outcomes = analyzedOf(facts, condition.label)?.outcomes ?? [];
      return outcomes.length > 0 && outcomes.every((o) => o === "cancelled");
    }
  }
}

/** The condition in words, for a "waiting for ..." line. */
export function describeCondition(condition: WaitCondition): string {
  switch (condition.kind) {
    case "fault-applied":
      return "the tap to apply the fault";
    case "attempts":
      return `${condition.atLeast} attempts of prompt ${condition.label}`;
    case "answered":
      return `an answer to prompt ${condition.label}`;
    case "failed":
      return `prompt ${condition.label} to be withdrawn`;
    case "connections":
      return `connection #${condition.atLeast}`;
    case "deploys":
      return `${condition.atLeast} deploys`;
    case "verdict":
      return `the verdict ${condition.verdict} on prompt ${condition.label}`;
    case "all-cancelled":
      return `every attempt of prompt ${condition.label} to be answered -32800`;
  }
}
