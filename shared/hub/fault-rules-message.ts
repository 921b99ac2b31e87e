/**
 * `fault-rules`, one shape on both of the hub's sockets: the hub sends it to a tap (`/ws/tap`) and to
 * every UI (`/ws/ui`) on connect and on every change of the fault board.
 */
import type { ArmedFault } from "../faults/armed-fault.js";
import type { FaultRule } from "../faults/fault-rule.js";

/**
 * Hub -> tap or UI: the armed rules the receiver is concerned with (a tap: those whose target is
 * this tap; a UI: all of them), the same with their taps, acknowledgements and firings (`faults`),
 * and the recently used-up ones, newest first (`recent`). A tap acts on `rules` and acknowledges them.
 */
export interface FaultRulesMessage {
  readonly t: "fault-rules";
  readonly rules: readonly FaultRule[];
  readonly faults: readonly ArmedFault[];
  readonly recent: readonly ArmedFault[];
}

/** The message of an untrusted object whose `t` is `fault-rules`; undefined when `rules` is not a list (`faults`, `recent` default to none). */
export function faultRulesMessage(m: Record<string, unknown>): FaultRulesMessage | undefined {
  if (!Array.isArray(m.rules)) return undefined;
  return {
    t: "fault-rules",
    rules: m.rules as FaultRule[],
    faults: Array.isArray(m.faults) ? (m.faults as ArmedFault[]) : [],
    recent: Array.isArray(m.recent) ? (m.recent as ArmedFault[]) : [],
  };
}
