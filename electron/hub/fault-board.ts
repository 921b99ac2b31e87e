import { type FaultRule, isImmediate } from "../../shared/faults/fault-rule.js";
import { checkFaultSpec } from "../../shared/faults/rule-validation.js";

/** The result of arming a rule. */
export type ArmResult =
  | { readonly ok: true; readonly rule: FaultRule; readonly immediate: boolean }
  | { readonly ok: false; readonly error: string };

/**
 * The hub's armed fault rules. Every change is published as the full list; taps consume uses
 * locally and report each application as a `fault` record, which `consume` turns into a lower
 * count here. An immediate rule ("kill the agent now") is published once to the taps connected
 * at that moment, then removed.
 */
export class FaultBoard {
  private rules: FaultRule[] = [];
  private nextId = 1;
  private readonly listeners = new Set<(rules: readonly FaultRule[]) => void>();

  /** `idSuffix` makes rule ids unique per hub run (`r1-3f9a`), so a fault record resent from an old hub's rule never consumes a new hub's. */
  constructor(private readonly idSuffix = "") {}

  /** Validates and arms a rule from untrusted input. */
  arm(input: unknown, now = new Date()): ArmResult {
    const check = checkFaultSpec(input);
    if (!check.ok) return check;
    const rule: FaultRule = {
      id: `r${this.nextId++}${this.idSuffix && `-${this.idSuffix}`}`,
      ...check.spec,
      armedAt: now.toISOString(),
    };
    const immediate = isImmediate(rule);
    this.rules.push(rule);
    this.publish();
    if (immediate) {
      this.rules = this.rules.filter((r) => r.id !== rule.id);
      this.publish();
    }
    return { ok: true, rule, immediate };
  }

  /** Disarms one rule; false when no such rule is armed. */
  disarm(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    if (this.rules.length === before) return false;
    this.publish();
    return true;
  }

  /** Disarms every rule; returns how many were armed. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    if (n > 0) this.publish();
    return n;
  }

  /** A tap applied rule `id` once: lower its count, disarm it when used up. */
  consume(id: string): void {
    const i = this.rules.findIndex((r) => r.id === id);
    const rule = this.rules[i];
    if (!rule) return;
    if (rule.count <= 1) this.rules.splice(i, 1);
    else this.rules[i] = { ...rule, count: rule.count - 1 };
    this.publish();
  }

  /** The armed rules, first armed first. */
  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** Calls `fn` with the full list on every change; returns an unsubscribe function. */
  onChange(fn: (rules: readonly FaultRule[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private publish(): void {
    const snapshot = [...this.rules];
    for (const fn of this.listeners) fn(snapshot);
  }
}
