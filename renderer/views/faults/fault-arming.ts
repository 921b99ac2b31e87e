/**
 * Arming a fault from the UI: the live taps a rule can go to, and the hook that arms a rule on the
 * hub (asking first, naming the pids, when it stops a process) and says what the hub answered.
 */
import { useRef } from "react";
import { describeRuleInWords } from "../../../shared/faults/armed-fault.js";
import { FAULT_ACTION_TABLE } from "../../../shared/faults/fault-actions.js";
import { type FaultRule, type FaultRuleSpec, RETRY_ACTIONS } from "../../../shared/faults/fault-rule.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useBridge, useInspector } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { askFault, CONFIRMED_ACTIONS } from "./fault-confirm.js";
import { type LiveTap, liveTaps, sameLiveTaps, tapWords } from "./fault-form.js";

/** The notice that said a rule was armed, so it can say when that rule fired or left the board. */
export const armedNotice: { current: { ruleId: string; text: string } | undefined } = { current: undefined };

/** What arming a retry action says besides the rule: the unkeyed caveat, unless a key is named. */
export function retryNote(rule: FaultRule): string {
  return rule.match.idempotencyKey === undefined
    ? ". If the prompt has no idempotencyKey, even a correct agent inserts it again."
    : "";
}

/**
 * The live taps, as the same array while none of them changed: the trace list is new with each
 * live publish (its record counts), and what lists taps need not render again for that.
 */
export function useLiveTaps(): readonly LiveTap[] {
  const last = useRef<readonly LiveTap[]>([]);
  return useInspector((s) => {
    const next = liveTaps(s.traces);
    if (!sameLiveTaps(last.current, next)) last.current = next;
    return last.current;
  });
}

/** Arms `spec` on the hub, confirming first when it stops a process; returns when done or refused. */
export function useArmFault(): (label: string, spec: FaultRuleSpec, taps: readonly LiveTap[]) => void {
  const bridge = useBridge();
  const run = useOperation();
  return (label, spec, taps) => {
    const all = spec.target !== undefined && "all" in spec.target;
    const where = tapWords(taps, all);
    const arm = () =>
      void run(
        `${label} on ${where}`,
        () => bridge.armFault({ spec }),
        (r) => {
          const words = `${describeRuleInWords(r.rule)}: ${
            r.immediate
              ? `done (acknowledged by ${r.taps} tap${r.taps === 1 ? "" : "s"})`
              : "armed (acknowledged)"
          }${RETRY_ACTIONS.has(spec.action) ? retryNote(r.rule) : ""}`;
          if (!r.immediate)
            armedNotice.current = { ruleId: r.rule.id, text: `${label} on ${where}: ${words}` };
          return words;
        },
      );
    if (!CONFIRMED_ACTIONS.has(spec.action)) return arm();
    const pids = taps.flatMap((t) => t.agentPids);
    const names = all
      ? `all live taps (${taps.length})`
      : taps.map((t) => `tap ${visibleText(t.name)}`).join(", ");
    askFault({
      text: `${label}: ${FAULT_ACTION_TABLE[spec.action].confirm} ${
        pids.length === 0 ? "the agent (no agent running now)" : `agent pid ${pids.join(", ")}`
      } of ${names}?`,
      confirmLabel: pids.length === 0 ? label : `${label} (pid ${pids.join(", ")})`,
      run: arm,
    });
  };
}
