/**
 * The hub's fault board as UIs and the CLI see it: each rule with the taps it went to, whether each
 * acknowledged it, and when it last fired, plus the words every surface shows for it
 * ("Drop the next session/prompt response · tap demo-agent @ repo (pid 123) · 1 left").
 */
import { FAULT_ACTION_TABLE, type FaultActionSpec, type RuleWords } from "./fault-actions.js";
import { type FaultRule, isImmediate } from "./fault-rule.js";

/** One tap a rule was sent to. */
export interface FaultTapRef {
  /** The hub's id for the tap (its trace id, as `taps` lists it). */
  readonly traceId: string;
  readonly name: string;
  /** Its agent processes alive when the board was read. */
  readonly agentPids: readonly number[];
  /** The tap acknowledged holding the rule. */
  readonly acked: boolean;
  /** The tap is attached to the hub now (a detached one applies nothing until it is back). */
  readonly attached?: boolean;
}

/** One firing of a rule, as a tap's `fault` record reported it. */
export interface FaultFiring {
  /** When the tap applied it, ISO 8601. */
  readonly at: string;
  readonly traceId: string;
  readonly name: string;
}

/**
 * `waiting`: sent, not yet acknowledged by every target (not shown as armed); `armed`: every target
 * holds it; `used`: fired its last use (or an immediate rule was carried out) and left the armed list.
 */
export type ArmedFaultState = "waiting" | "armed" | "used";

/** One rule on the board. */
export interface ArmedFault {
  readonly rule: FaultRule;
  readonly state: ArmedFaultState;
  /** True when it was armed on every live tap (`target: {all: true}`). */
  readonly allTaps: boolean;
  readonly taps: readonly FaultTapRef[];
  /** Its last firing, or null. */
  readonly lastFired: FaultFiring | null;
  /** How many times it fired. */
  readonly fired: number;
}

/** An action this build does not know (a newer hub's) still gets words: "Some action on the next message". */
function unknownActionWords(action: string): (w: RuleWords) => string {
  const verb = action.charAt(0).toUpperCase() + action.slice(1).replace(/-/g, " ");
  return (w) => `${verb} on ${w.frame}${w.where}`;
}

function what(rule: FaultRule): string {
  const spec: FaultActionSpec | undefined = FAULT_ACTION_TABLE[rule.action];
  const m = rule.match;
  const on = m.on ?? (spec?.triggers.length === 1 ? spec.triggers[0] : undefined);
  const n = rule.count > 1 ? ` ${rule.count}` : "";
  const noun = on === "response" ? "response" : on === "request" ? "request" : "message";
  return (spec?.words ?? unknownActionWords(String(rule.action)))({
    frame: `the next${n}${m.method ? ` ${m.method}` : ""} ${noun}${rule.count > 1 ? "s" : ""}`,
    where: `${m.sessionId ? ` in session ${m.sessionId}` : ""}${m.idempotencyKey ? ` with key ${m.idempotencyKey}` : ""}`,
    method: m.method ?? spec?.defaultMethod ?? "",
    delayMs: rule.delayMs ?? 0,
    immediate: isImmediate(rule),
  });
}

/** What a rule does, in words: "Drop the next session/prompt response in session s1". */
export function describeRuleInWords(rule: FaultRule): string {
  return what(rule);
}

/** A tap in words: `tap demo-agent @ repo (pid 123)`. */
export function describeTap(t: Pick<FaultTapRef, "name" | "agentPids">): string {
  const pids = t.agentPids;
  const p = pids.length === 0 ? "no agent running" : `pid${pids.length > 1 ? "s" : ""} ${pids.join(", ")}`;
  return `tap ${t.name} (${p})`;
}

/** The targets of a rule in words. */
export function describeTargets(f: Pick<ArmedFault, "taps" | "allTaps">): string {
  const one = f.taps.map((t) => describeTap(t)).join(", ");
  return f.allTaps ? `all live taps (${f.taps.length}): ${one}` : one;
}

/** `HH:MM:SS` in local time. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Where a rule stands, in words: `waiting for the tap to acknowledge`, `armed · 1 left`, `fired at 12:03:04 on tap X`. */
export function describeFaultState(f: ArmedFault): string {
  const fired = f.lastFired ? `fired at ${clockTime(f.lastFired.at)} on tap ${f.lastFired.name}` : "";
  if (f.state === "waiting") {
    const missing = f.taps.filter((t) => !t.acked).map((t) => t.name);
    return `waiting for ${missing.length === 1 ? `tap ${missing[0]}` : `${missing.length} taps`} to acknowledge`;
  }
  if (f.state === "used") return fired || "done";
  const left = isImmediate(f.rule) ? "" : `${f.rule.count} left`;
  const gone = f.taps.filter((t) => t.attached === false).map((t) => `tap ${t.name} is not attached`);
  return ["armed", left, fired, ...gone].filter((s) => s !== "").join(" · ");
}

/** The whole line: what, where, state. */
export function describeArmedFault(f: ArmedFault): string {
  return `${describeRuleInWords(f.rule)} · ${describeTargets(f)} · ${describeFaultState(f)}`;
}
