import { FAULT_ACTION_TABLE } from "../../../shared/faults/fault-actions.js";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { type FaultDecision, FaultRuleSet } from "../../../shared/faults/fault-rule-set.js";
import { spendUse } from "../../../shared/faults/rule-uses.js";
import type { Direction } from "../../../shared/trace/record.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import { type ArmedRules, ConnectionFaults } from "./connection-faults.js";
import { requestMatches } from "./inspector-retry.js";
import type { LifecycleActions } from "./lifecycle-actions.js";

export type { LifecycleActions } from "./lifecycle-actions.js";

/**
 * The fault rules of one tap and where they apply. Two rule sets: rules armed on the command line
 * (`proxy --fault ...`, checked first) and the hub's list (replaced on every push, `[]` when the hub
 * goes away). Every application is a `fault` trace record. Each client connection gets a
 * `ConnectionFaults` (its `FramePolicy` pair and request ledger).
 */
export class FaultInjector implements ArmedRules {
  private readonly local = new FaultRuleSet();
  private readonly hub = new FaultRuleSet();
  private readonly connections = new Map<number, { faults: ConnectionFaults; actions: LifecycleActions }>();
  /**
   * `proxy --fault retry...`: armed before any request exists, so each fires on the next matching
   * client request instead, resending it right after it was forwarded (while it is pending).
   */
  private localRetries: FaultRule[] = [];

  constructor(private readonly trace: TraceFanout) {}

  /** True while any rule is armed (the tap's pumps leave their fast path). */
  armed(): boolean {
    return this.local.list().length > 0 || this.hub.list().length > 0;
  }

  /** Arms rules given on the command line; immediate ones apply at once to every connection. */
  armLocal(rules: readonly FaultRule[]): void {
    const firesWhenArmed = (r: FaultRule) => FAULT_ACTION_TABLE[r.action].decision === "immediate";
    this.localRetries.push(...rules.filter(firesWhenArmed));
    const others = rules.filter((r) => !firesWhenArmed(r));
    this.applyImmediate(this.local.replace([...this.local.list(), ...others]));
  }

  /** The command-line `retry` rule the client's request `req` uses up, if any (first armed first). */
  takeLocalRetry(req: { method: string; params: unknown }): FaultRule | undefined {
    if (this.localRetries.length === 0) return undefined;
    const i = this.localRetries.findIndex((r) => requestMatches(r.match, req));
    const rule = this.localRetries[i];
    if (!rule) return undefined;
    const after = spendUse(rule);
    if (after) this.localRetries[i] = after;
    else this.localRetries.splice(i, 1);
    return rule;
  }

  /** Takes the hub's full list of armed rules; immediate ones apply at once to every connection. */
  setHubRules(rules: readonly FaultRule[]): void {
    this.applyImmediate(this.hub.replace(rules));
  }

  /** The rules armed here, command-line ones first, with their remaining counts. */
  list(): readonly FaultRule[] {
    return [...this.localRetries, ...this.local.list(), ...this.hub.list()];
  }

  /** Registers a client connection; its lifecycle faults run through `actions`. */
  connection(conn: number, actions: LifecycleActions): ConnectionFaults {
    const faults = new ConnectionFaults(conn, this, this.trace, actions);
    this.connections.set(conn, { faults, actions });
    return faults;
  }

  /** Forgets a connection that closed; a frame it still held is never delivered. */
  release(conn: number, why = "the connection closed"): void {
    this.connections.get(conn)?.faults.settleHolds(why);
    this.connections.delete(conn);
  }

  /** The tap is ending: every frame still held on any connection is never delivered. */
  settleAllHolds(why: string): void {
    for (const { faults } of this.connections.values()) faults.settleHolds(why);
  }

  /** Decides one frame by the armed rules (command-line first), consuming a use of the rule that fires. */
  decide(
    frame: Parameters<FaultRuleSet["decide"]>[0],
    dir: Direction,
    answered: Parameters<FaultRuleSet["decide"]>[2],
  ): FaultDecision {
    const local = this.local.decide(frame, dir, answered);
    return local.action === "forward" ? this.hub.decide(frame, dir, answered) : local;
  }

  /** Records one application of `rule` and, for a lifecycle rule, carries it out on `conn`. */
  apply(rule: FaultRule, conn: number, frameSeq?: number, detail?: string): void {
    this.trace.emit({
      type: "fault",
      action: rule.action,
      ruleId: rule.id,
      conn,
      ...(frameSeq !== undefined && { frameSeq }),
      ...(detail !== undefined && { detail }),
    });
    const target = this.connections.get(conn);
    if (!target) return;
    // Process actions run here; the retries are carried out by the connection's ConnectionFaults.
    const lifecycle = FAULT_ACTION_TABLE[rule.action].lifecycle;
    if (lifecycle) target.actions[lifecycle]();
  }

  private applyImmediate(rules: readonly FaultRule[]): void {
    for (const rule of rules) {
      if (this.connections.size === 0) {
        this.trace.emit({
          type: "note",
          level: "warn",
          text: `fault rule ${rule.id} (${rule.action}) arrived with no client connection open; nothing to act on`,
        });
        continue;
      }
      for (const [conn, target] of [...this.connections]) {
        if (FAULT_ACTION_TABLE[rule.action].decision === "immediate") target.faults.retryNow(rule);
        else this.apply(rule, conn, undefined, "immediate");
      }
    }
  }
}
