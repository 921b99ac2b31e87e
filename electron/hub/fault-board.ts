import type { ArmedFault, FaultFiring } from "../../shared/faults/armed-fault.js";
import { type FaultRule, isImmediate } from "../../shared/faults/fault-rule.js";
import { spendUse } from "../../shared/faults/rule-uses.js";
import { checkFaultSpec } from "../../shared/faults/rule-validation.js";
import type { FaultRulesMessage } from "../../shared/hub/fault-rules-message.js";

/** The result of arming a rule. */
export type ArmResult =
  | { readonly ok: true; readonly rule: FaultRule; readonly immediate: boolean }
  | { readonly ok: false; readonly error: string };

/** What the board needs to know of one tap. */
export interface BoardTap {
  readonly traceId: string;
  readonly name: string;
  readonly agentPids: readonly number[];
  readonly attached: boolean;
}

/** The hub's taps, as the board resolves targets and names them. */
export interface TapDirectory {
  /** Every tap of this hub run (attached or not). */
  list(): readonly BoardTap[];
}

/** Whether every target of a rule acknowledged it. */
export type AckOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

interface Entry {
  rule: FaultRule;
  readonly taps: readonly string[];
  readonly acked: Set<string>;
  readonly refused: Set<string>;
  fired: number;
  lastFired: FaultFiring | null;
  used: boolean;
}

/** How long arming waits for the target taps' acknowledgements by default. */
export const FAULT_ACK_TIMEOUT_MS = 5_000;

/** Used-up rules kept for the lists' "fired at" lines. */
const RECENT = 20;

/**
 * The hub's fault rules. Each rule targets one tap or every tap attached when it was armed, and is
 * sent to those only (`rulesFor`). A tap acknowledges the rules it holds (`ack`); a rule is shown as
 * armed only once every target did. Taps consume uses locally and report each application as a
 * `fault` record, which `consume` turns into a lower count here; a used-up rule leaves the armed
 * list and is kept a while among the recent ones, with when and where it fired. An immediate rule
 * ("kill the agent now") leaves once every target acknowledged (and so carried it out).
 */
export class FaultBoard {
  private armed: Entry[] = [];
  private recent: Entry[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private readonly ackWaiters = new Set<() => void>();

  /** `idSuffix` makes rule ids unique per hub run (`r1-3f9a`), so a fault record resent from an old hub's rule never consumes a new hub's. */
  constructor(
    private readonly idSuffix = "",
    private readonly taps: TapDirectory = { list: () => [] },
  ) {}

  /** Validates and arms a rule from untrusted input; it needs a target that is attached now. */
  arm(input: unknown, now = new Date()): ArmResult {
    const check = checkFaultSpec(input);
    if (!check.ok) return check;
    const target = check.spec.target;
    if (!target)
      return {
        ok: false,
        error: 'a rule needs a target: one tap (target {"tap": ID}, the ID `taps` lists) or {"all": true}',
      };
    const live = this.taps.list().filter((t) => t.attached);
    let taps: string[];
    if ("tap" in target) {
      const t = live.find((x) => x.traceId === target.tap);
      if (!t) return { ok: false, error: `no tap ${target.tap} is attached to this hub (see \`taps\`)` };
      taps = [t.traceId];
    } else {
      if (live.length === 0)
        return { ok: false, error: "no tap is attached to this hub, so nothing to arm on" };
      taps = live.map((t) => t.traceId);
    }
    const rule: FaultRule = {
      id: `r${this.nextId++}${this.idSuffix && `-${this.idSuffix}`}`,
      ...check.spec,
      armedAt: now.toISOString(),
    };
    this.armed.push({
      rule,
      taps,
      acked: new Set(),
      refused: new Set(),
      fired: 0,
      lastFired: null,
      used: false,
    });
    this.publish();
    return { ok: true, rule, immediate: isImmediate(rule) };
  }

  /** The rules armed for one tap, first armed first: what the hub sends it. */
  rulesFor(traceId: string): FaultRule[] {
    return this.armed.filter((e) => e.taps.includes(traceId)).map((e) => e.rule);
  }

  /** Tap `traceId` holds rules `ids` (and refused `refused`); an immediate rule every target holds is done. */
  ack(traceId: string, ids: readonly string[], refused: readonly string[] = []): void {
    let changed = false;
    for (const e of [...this.armed]) {
      if (!e.taps.includes(traceId)) continue;
      if (ids.includes(e.rule.id) && !e.acked.has(traceId)) {
        e.acked.add(traceId);
        changed = true;
      }
      if (refused.includes(e.rule.id) && !e.refused.has(traceId)) {
        e.refused.add(traceId);
        changed = true;
      }
      if (isImmediate(e.rule) && e.taps.every((t) => e.acked.has(t) || e.refused.has(t))) this.retire(e);
    }
    if (!changed) return;
    for (const fn of [...this.ackWaiters]) fn();
    this.publish();
  }

  /** Resolves once every target of rule `id` acknowledged it, or with the reason it did not within `timeoutMs`. */
  whenAcked(id: string, timeoutMs: number): Promise<AckOutcome> {
    return new Promise((resolve) => {
      const check = (final: boolean): boolean => {
        const e = this.find(id);
        if (!e) return done({ ok: false, error: `rule ${id} was disarmed before every tap acknowledged it` });
        const refused = e.taps.filter((t) => e.refused.has(t));
        if (refused.length > 0)
          return done({ ok: false, error: `${this.names(refused)} refused rule ${id}` });
        const missing = e.taps.filter((t) => !e.acked.has(t));
        if (missing.length === 0) return done({ ok: true });
        if (final)
          return done({
            ok: false,
            error: `${this.names(missing)} did not acknowledge rule ${id} within ${timeoutMs} ms`,
          });
        return false;
      };
      const timer = setTimeout(() => check(true), timeoutMs);
      const waiter = () => {
        check(false);
      };
      const done = (r: AckOutcome): true => {
        clearTimeout(timer);
        this.ackWaiters.delete(waiter);
        resolve(r);
        return true;
      };
      if (!check(false)) this.ackWaiters.add(waiter);
    });
  }

  /** Disarms one rule; false when no such rule is armed. */
  disarm(id: string): boolean {
    const before = this.armed.length;
    this.armed = this.armed.filter((e) => e.rule.id !== id);
    if (this.armed.length === before) return false;
    for (const fn of [...this.ackWaiters]) fn();
    this.publish();
    return true;
  }

  /** Disarms every rule; returns how many were armed. */
  clear(): number {
    const n = this.armed.length;
    this.armed = [];
    if (n > 0) {
      for (const fn of [...this.ackWaiters]) fn();
      this.publish();
    }
    return n;
  }

  /** Tap `traceId` applied rule `id` once at `atMs`: note the firing, lower the count, retire it when used up. */
  consume(id: string, traceId?: string, atMs = Date.now()): void {
    const e = this.armed.find((x) => x.rule.id === id) ?? this.recent.find((x) => x.rule.id === id);
    if (!e || (traceId !== undefined && !e.taps.includes(traceId))) return;
    e.fired++;
    const tap = traceId === undefined ? undefined : this.taps.list().find((t) => t.traceId === traceId);
    e.lastFired = {
      at: new Date(atMs).toISOString(),
      traceId: traceId ?? "",
      name: tap?.name ?? traceId ?? "?",
    };
    if (!e.used && !isImmediate(e.rule)) {
      const after = spendUse(e.rule);
      if (after) e.rule = after;
      else this.retire(e);
    }
    this.publish();
  }

  /** The armed rules, first armed first. */
  list(): readonly FaultRule[] {
    return this.armed.map((e) => e.rule);
  }

  /** The armed rules with their taps, acks and firings, and the recently used-up ones, newest first. */
  views(): { readonly faults: ArmedFault[]; readonly recent: ArmedFault[] } {
    const view = this.viewer();
    return { faults: this.armed.map(view), recent: this.recent.map(view) };
  }

  /**
   * The `fault-rules` message, one shape for both sockets: for tap `traceId` the rules whose target
   * is that tap (and their views); without one, the whole board (for UIs).
   */
  message(traceId?: string): FaultRulesMessage {
    const concerned = (e: Entry) => traceId === undefined || e.taps.includes(traceId);
    const armed = this.armed.filter(concerned);
    const view = this.viewer();
    return {
      t: "fault-rules",
      rules: armed.map((e) => e.rule),
      faults: armed.map(view),
      recent: this.recent.filter(concerned).map(view),
    };
  }

  /** How an entry looks on the board, with the taps' current names, pids and attachment. */
  private viewer(): (e: Entry) => ArmedFault {
    const byId = new Map(this.taps.list().map((t) => [t.traceId, t]));
    return (e: Entry): ArmedFault => ({
      rule: e.rule,
      state: e.used ? "used" : e.taps.every((t) => e.acked.has(t)) ? "armed" : "waiting",
      allTaps: e.rule.target !== undefined && "all" in e.rule.target,
      taps: e.taps.map((t) => ({
        traceId: t,
        name: byId.get(t)?.name ?? t,
        agentPids: byId.get(t)?.agentPids ?? [],
        acked: e.acked.has(t),
        attached: byId.get(t)?.attached ?? false,
      })),
      lastFired: e.lastFired,
      fired: e.fired,
    });
  }

  /** A tap came or went: the board's words (attached, pids) changed. */
  refresh(): void {
    if (this.armed.length > 0) this.publish();
  }

  /** Calls `fn` on every change; returns an unsubscribe function. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private find(id: string): Entry | undefined {
    return this.armed.find((e) => e.rule.id === id) ?? this.recent.find((e) => e.rule.id === id);
  }

  private names(traceIds: readonly string[]): string {
    const byId = new Map(this.taps.list().map((t) => [t.traceId, t.name]));
    return traceIds.map((t) => `tap ${byId.get(t) ?? t}`).join(", ");
  }

  private retire(e: Entry): void {
    e.used = true;
    this.armed = this.armed.filter((x) => x !== e);
    this.recent = [e, ...this.recent.filter((x) => x !== e)].slice(0, RECENT);
  }

  private publish(): void {
    for (const fn of this.listeners) fn();
  }
}
