import type { Frame } from "../protocol/frame.js";
import type { Direction } from "../trace/record.js";
import { type ActionsDeciding, FAULT_ACTION_TABLE } from "./fault-actions.js";
import { type FaultRule, isImmediate } from "./fault-rule.js";
import { type AnsweredRequest, matchFrame } from "./match-frame.js";
import { spendUse } from "./rule-uses.js";

/**
 * What the tap does with one frame. `forward`: pass it on untouched. `drop`: swallow it (record it
 * with `dropped: true`). `delay`: forward it after `delayMs`. The lifecycle actions swallow the
 * triggering frame (it is recorded as dropped), then disconnect the client, kill or restart the agent.
 */
export type FaultDecision =
  | { readonly action: "forward" }
  | { readonly action: "drop"; readonly rule: FaultRule }
  | { readonly action: "delay"; readonly rule: FaultRule; readonly delayMs: number }
  | { readonly action: ActedAction; readonly rule: FaultRule };

/** The actions whose table entry decides `act`: the connection carries them out. */
type ActedAction = ActionsDeciding<"act">;
const FORWARD: FaultDecision = { action: "forward" };

/**
 * The tap's copy of the armed rules. The hub sends the full list whenever it changes; counts are
 * consumed locally as rules fire, and a later list never gives a rule back uses it already spent
 * (the remaining count is the lower of the hub's and the local one). First armed, first applied.
 */
export class FaultRuleSet {
  private rules: FaultRule[] = [];
  private readonly remaining = new Map<string, number>();
  private readonly seenImmediate = new Set<string>();

  /** Replaces the armed rules with the hub's list; returns the immediate rules not seen before, to apply now. */
  replace(rules: readonly FaultRule[]): FaultRule[] {
    const now: FaultRule[] = [];
    const next: FaultRule[] = [];
    const live = new Set<string>();
    for (const r of rules) {
      if (isImmediate(r)) {
        if (!this.seenImmediate.has(r.id)) {
          this.seenImmediate.add(r.id);
          now.push(r);
        }
        continue;
      }
      const local = this.remaining.get(r.id);
      const count = local === undefined ? r.count : Math.min(local, r.count);
      live.add(r.id);
      this.remaining.set(r.id, count);
      if (count > 0) next.push({ ...r, count });
    }
    for (const id of [...this.remaining.keys()]) if (!live.has(id)) this.remaining.delete(id);
    this.rules = next;
    return now;
  }

  /** Decides the fate of one frame and consumes one use of the rule that fired, if any. */
  decide(frame: Frame, dir: Direction, answered?: AnsweredRequest): FaultDecision {
    if (this.rules.length === 0) return FORWARD;
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i] as FaultRule;
      if (!matchFrame(rule, frame, dir, answered)) continue;
      const after = spendUse(rule);
      this.remaining.set(rule.id, after?.count ?? 0);
      if (after) this.rules[i] = after;
      else this.rules.splice(i, 1);
      switch (FAULT_ACTION_TABLE[rule.action].decision) {
        case "drop":
          return { action: "drop", rule };
        case "delay":
          return { action: "delay", rule, delayMs: rule.delayMs ?? 0 };
        case "immediate":
          return FORWARD; // immediate: never decided on a frame (matchFrame refuses it)
        case "act":
          return { action: rule.action as ActedAction, rule };
      }
    }
    return FORWARD;
  }

  /** The rules still armed here, with their local remaining counts. */
  list(): readonly FaultRule[] {
    return this.rules;
  }
}
