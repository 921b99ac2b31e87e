/**
 * The hub's fault board in the drawer: each armed rule in words with its tap, state and a Disarm
 * button, and one line for the last rule that fired (when and on which tap), not a pile of old
 * firings. A firing also becomes the notice; an "armed" notice whose rule left the board without
 * firing says so.
 */
import { useEffect, useRef } from "react";
import {
  type ArmedFault,
  clockTime,
  describeArmedFault,
  describeRuleInWords,
} from "../../../shared/faults/armed-fault.js";
import { RETRY_ACTIONS } from "../../../shared/faults/fault-rule.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useBridge, useInspector } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { armedNotice, retryNote } from "./fault-arming.js";

/** A fired rule in words: the rule, when it fired and on which tap. */
export function firedWords(f: ArmedFault): string {
  const retry = RETRY_ACTIONS.has(f.rule.action) ? retryNote(f.rule) : "";
  return `${describeRuleInWords(f.rule)} · fired at ${f.lastFired ? clockTime(f.lastFired.at) : "?"} on tap ${f.lastFired?.name ?? "?"}${retry}`;
}

/** Turns the newest firing into a notice, once; and an orphaned "armed" notice into "no longer armed". */
function useFaultNotices(faults: readonly ArmedFault[], recent: readonly ArmedFault[]) {
  const setNotice = useInspector((s) => s.setNotice);
  const last = recent[0];
  const lastKey = last?.lastFired ? `${last.rule.id}@${last.lastFired.at}` : undefined;
  const seen = useRef<string | undefined>(lastKey);
  useEffect(() => {
    if (lastKey === seen.current) return;
    seen.current = lastKey;
    if (last?.lastFired) setNotice({ tone: "info", text: firedWords(last) });
  }, [lastKey, last, setNotice]);
  const notice = useInspector((s) => s.notice);
  useEffect(() => {
    const a = armedNotice.current;
    if (!a || notice?.text !== a.text) return;
    if (faults.some((f) => f.rule.id === a.ruleId)) return;
    if (recent.some((f) => f.rule.id === a.ruleId && f.lastFired)) return; // the fired notice takes over
    armedNotice.current = undefined;
    setNotice({
      tone: "info",
      text: `${a.text.replace(/: armed \(acknowledged\).*$/, "")}: no longer armed (disarmed before it fired)`,
    });
  }, [faults, recent, notice, setNotice]);
}

/** The armed rules and the last one fired. */
export function ArmedRules() {
  const faults = useInspector((s) => s.faults);
  const recent = useInspector((s) => s.recentFaults);
  const bridge = useBridge();
  const run = useOperation();
  useFaultNotices(faults, recent);
  const last = recent.find((f) => f.lastFired);
  return (
    <section className="armed" aria-label="Armed fault rules">
      {faults.length === 0 ? (
        <span className="muted">No fault armed.</span>
      ) : (
        <ul>
          {faults.map((f) => (
            <li key={f.rule.id} data-state={f.state}>
              {visibleText(describeArmedFault(f))} <code className="muted">{f.rule.id}</code>{" "}
              <button
                type="button"
                aria-label={`Disarm ${f.rule.id}`}
                onClick={() => run(`Disarm ${f.rule.id}`, () => bridge.disarmFault({ id: f.rule.id }))}
              >
                Disarm
              </button>
            </li>
          ))}
        </ul>
      )}
      {last ? (
        <p className="armed__last muted" data-testid="last-fired">
          Last fired: {visibleText(firedWords(last))}
        </p>
      ) : null}
    </section>
  );
}
