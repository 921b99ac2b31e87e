/**
 * A truth-oracle schedule: a stress schedule (shared/conformance/stress/schedule.ts) without the
 * client's `cancel` (the reference client never cancels), run by the reference client `demo-client`
 * keyed (one key per prompt, so each fault hits its prompt by key) or unkeyed (`--no-key`: one
 * prompt, its faults hit the next `session/prompt` frame). The actions cover the tap's inspector
 * retries (`lose-and-retry`, `restart-and-retry`), held frames (`delay`), agent restarts and kills,
 * and client reconnects (`disconnect-client`).
 */

import {
  printSchedule,
  STRESS_ACTIONS,
  type StressAction,
  type StressSchedule,
} from "../../shared/conformance/stress/schedule.js";

/** The fault actions a truth schedule draws from: the stress actions but `cancel` (demo-client never cancels). */
export const TRUTH_ACTIONS: readonly StressAction[] = STRESS_ACTIONS.filter((a) => a !== "cancel");

/** One schedule of the oracle. */
export interface TruthSchedule extends StressSchedule {
  /** False: the client sends no keys (`demo-client --no-key`); such a schedule has one prompt. */
  readonly keyed: boolean;
}

/** The text form, as a finding prints it: the stress form, `nokey:` in front for an unkeyed client. */
export function printTruthSchedule(schedule: TruthSchedule): string {
  return `${schedule.keyed ? "" : "nokey:"}${printSchedule(schedule)}`;
}

/** Reads `printTruthSchedule`'s form back (the stress part through the stress parser). */
export function truthScheduleOf(stress: StressSchedule, keyed: boolean): TruthSchedule {
  return { prompts: keyed ? stress.prompts : 1, faults: stress.faults, keyed };
}
