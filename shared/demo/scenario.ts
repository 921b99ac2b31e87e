/**
 * The scenario model of the built-in demo: a story from the Idempotency Keys RFD told in steps,
 * each with a caption a presenter can read aloud, one action on the live demo, a condition that
 * says the action has played out, and what the audience should now see. Pure data, no I/O.
 */
import type { VerdictName } from "../analyzer/verdicts.js";
import type { FaultRuleSpec } from "../faults/fault-rule.js";

/** How the demo agent behaves (its `--mode`): `correct` follows every rule, `naive` ignores keys. */
export type AgentMode = "correct" | "naive" | "forgetful" | "strict";

/** Every agent mode, in the order a UI lists them. */
export const AGENT_MODES: readonly AgentMode[] = ["correct", "naive", "forgetful", "strict"];

/** How long the agent's turns last: `normal` (readable) or `long` (so a second prompt stays held). */
export type TurnLength = "normal" | "long";

/** A name a scenario gives one of its submissions ("A", "B"), so later steps can refer to it. */
export type SubmissionLabel = string;

/** What a step does to the live demo. */
export type StepAction =
  /** The demo client submits `text` (a key is created at submit time when `withKey`). */
  | { readonly do: "send"; readonly label: SubmissionLabel; readonly text: string; readonly withKey: boolean }
  /** Arm a fault rule on the hub; the tap applies it to the next matching frame. */
  | { readonly do: "arm"; readonly rule: FaultRuleSpec }
  /** The client sends `$/cancel_request` for every pending request of the submission. */
  | { readonly do: "cancel"; readonly label: SubmissionLabel }
  /** Nothing: the step only waits and explains. */
  | { readonly do: "observe" };

/** When a step has played out. Every condition is checked against live facts (client and trace). */
export type WaitCondition =
  /** The tap applied at least `atLeast` fault rules in this run. */
  | { readonly kind: "fault-applied"; readonly atLeast: number }
  /** The client has sent at least `atLeast` attempts for the submission. */
  | { readonly kind: "attempts"; readonly label: SubmissionLabel; readonly atLeast: number }
  /** The client got a messageId for the submission. */
  | { readonly kind: "answered"; readonly label: SubmissionLabel }
  /** The submission failed (e.g. every pending request answered -32800). */
  | { readonly kind: "failed"; readonly label: SubmissionLabel }
  /** The client has opened at least `atLeast` connections (a reconnect happened). */
  | { readonly kind: "connections"; readonly atLeast: number }
  /** The analyzer judged the submission with this verdict. */
  | { readonly kind: "verdict"; readonly label: SubmissionLabel; readonly verdict: VerdictName }
  /** The analyzer shows every attempt of the submission answered -32800. */
  | { readonly kind: "all-cancelled"; readonly label: SubmissionLabel }
  /** The client saw at least `atLeast` deploys (tool calls) live. */
  | { readonly kind: "deploys"; readonly atLeast: number };

/** One step of a scenario. */
export interface Step {
  /** One or two plain sentences for the presenter, shown large while the step plays. */
  readonly caption: string;
  /** The RFD sentence the step shows, verbatim; empty when the step only sets the scene. */
  readonly rfd: string;
  readonly action: StepAction;
  /** The step is over when this holds; absent means at once. */
  readonly until?: WaitCondition;
  /** What the audience should see once the step played out. */
  readonly expectation: string;
}

/** One story of the RFD, played on the live demo. */
export interface Scenario {
  /** Stable, URL-safe id (`lost-response`, ...). */
  readonly id: string;
  readonly title: string;
  /** Two or three words for a Play button where the title does not fit (presenter mode). */
  readonly short: string;
  /** One sentence for the scenario list. */
  readonly summary: string;
  readonly agentMode: AgentMode;
  readonly turn: TurnLength;
  readonly steps: readonly Step[];
}
