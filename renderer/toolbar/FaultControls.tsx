/**
 * Fault buttons and the armed rules: each button arms one hub rule (optionally limited to a
 * method); the rules the hub holds are listed, each with a button that disarms it.
 */
import { useState } from "react";
import {
  describeRule,
  type FaultRule,
  type FaultRuleSpec,
  RETRY_ACTIONS,
} from "../../shared/faults/fault-rule.js";
import { useOperation } from "../bridge/use-operation.js";
import { useBridge, useInspector } from "../store/inspector-store.js";
import { DEFAULT_FAULT_DELAY_MS, FAULT_BUTTONS, type FaultButton } from "./fault-catalogue.js";

function specFor(b: FaultButton, method: string, delayMs: number): FaultRuleSpec {
  const m = method.trim();
  if (!b.usesMethod) return { action: b.action };
  const match = { ...(m !== "" && { method: m }), ...(b.action === "delay" && { on: "response" as const }) };
  return { action: b.action, match, ...(b.action === "delay" && { delayMs }) };
}

/** What arming a retry action says besides the rule: the unkeyed caveat, unless a key is named. */
function retryNote(rule: FaultRule): string {
  return rule.match.idempotencyKey === undefined
    ? ". If the prompt has no idempotencyKey, even a correct agent inserts it again."
    : "";
}

function ArmedRules() {
  const rules = useInspector((s) => s.rules);
  const bridge = useBridge();
  const run = useOperation();
  return (
    <section className="armed" aria-label="Armed fault rules">
      {rules.length === 0 ? (
        <span className="muted">No fault armed.</span>
      ) : (
        <ul>
          {rules.map((r) => (
            <li key={r.id}>
              <code>{r.id}</code> {describeRule(r)}{" "}
              <button
                type="button"
                aria-label={`Disarm ${r.id}`}
                onClick={() => run(`Disarm ${r.id}`, () => bridge.disarmFault({ id: r.id }))}
              >
                Disarm
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The fault group of the toolbar. */
export function FaultControls({ disabled }: { disabled: boolean }) {
  const bridge = useBridge();
  const run = useOperation();
  const [method, setMethod] = useState("session/prompt");
  const [delayMs, setDelayMs] = useState(DEFAULT_FAULT_DELAY_MS);
  return (
    <fieldset className="toolbar__group toolbar__faults">
      <legend className="visually-hidden">Fault injection</legend>
      <label title="Drop and delay buttons act only on this method (empty: any).">
        Method <input size={14} value={method} onChange={(e) => setMethod(e.currentTarget.value)} />
      </label>
      <label>
        Delay ms{" "}
        <input
          type="number"
          min={0}
          max={600_000}
          step={100}
          value={delayMs}
          onChange={(e) =>
            setDelayMs(Math.max(0, Math.min(600_000, Math.round(Number(e.currentTarget.value) || 0))))
          }
        />
      </label>
      {FAULT_BUTTONS.map((b) => (
        <button
          key={b.action}
          type="button"
          title={b.explanation}
          disabled={disabled}
          onClick={() =>
            run(
              b.label,
              () => bridge.armFault({ spec: specFor(b, method, delayMs) }),
              (r) =>
                (r.immediate
                  ? `sent now${r.taps === undefined ? "" : ` to ${r.taps} tap${r.taps === 1 ? "" : "s"}`}`
                  : `armed ${r.rule.id}`) + (RETRY_ACTIONS.has(b.action) ? retryNote(r.rule) : ""),
            )
          }
        >
          {b.label}
        </button>
      ))}
      <ArmedRules />
    </fieldset>
  );
}
