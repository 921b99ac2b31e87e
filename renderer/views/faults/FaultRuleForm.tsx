/**
 * The fault drawer's rule form: where the rule goes (the shown trace's tap, another live tap, all
 * live taps) and every field of a rule (method, session, key, frame, count, delay).
 */
import { useEffect, useId, useRef } from "react";
import { useStore } from "zustand";
import { faultDrawer } from "./fault-drawer-state.js";
import { faultForm, type LiveTap, type TargetChoice, tapWords, useFaultForm } from "./fault-form.js";

function targetValue(c: TargetChoice): string {
  return typeof c === "string" ? c : `tap:${c.tap}`;
}

/** Where the rule goes: the shown trace's tap, another live tap, or all live taps. */
export function TargetPicker({
  live,
  shownLive,
}: {
  live: readonly LiveTap[];
  shownLive: LiveTap | undefined;
}) {
  const target = useFaultForm((s) => s.target);
  return (
    <label title="The tap the rule goes to. The hub sends it to that tap only.">
      On{" "}
      <select
        aria-label="Arm on"
        value={targetValue(target)}
        onChange={(e) => {
          const v = e.currentTarget.value;
          faultForm.getState().set({ target: v === "shown" || v === "all" ? v : { tap: v.slice(4) } });
        }}
      >
        <option value="shown">
          {shownLive ? `shown trace: ${tapWords([shownLive], false)}` : "shown trace (its tap is not live)"}
        </option>
        {live
          .filter((t) => t.traceId !== shownLive?.traceId)
          .map((t) => (
            <option key={t.traceId} value={`tap:${t.traceId}`}>
              {tapWords([t], false)}
            </option>
          ))}
        <option value="all" disabled={live.length === 0}>
          all live taps ({live.length})
        </option>
      </select>
    </label>
  );
}

/** Every field of a rule; a row's menu filling the form opens the drawer and focuses the delay. */
export function RuleFields() {
  const f = useFaultForm((s) => s);
  const filled = useFaultForm((s) => s.filled);
  const delayRef = useRef<HTMLInputElement>(null);
  const groupId = useId();
  const open = useStore(faultDrawer, (s) => s.open);
  const focusedFill = useRef(0);
  // a row's menu filled the form: open the drawer, then focus the delay (once per fill)
  useEffect(() => {
    if (filled === focusedFill.current) return;
    if (!open) return faultDrawer.getState().setOpen(true);
    focusedFill.current = filled;
    delayRef.current?.focus();
  }, [filled, open]);
  const set = f.set;
  return (
    <span className="fault-fields" id={groupId}>
      <label title="Drop and delay act only on this method (empty: any).">
        Method <input size={14} value={f.method} onChange={(e) => set({ method: e.currentTarget.value })} />
      </label>
      <label title="params.sessionId (empty: any session)">
        Session{" "}
        <input size={10} value={f.sessionId} onChange={(e) => set({ sessionId: e.currentTarget.value })} />
      </label>
      <label title="params.idempotencyKey (empty: any key, or none)">
        Key <input size={10} value={f.key} onChange={(e) => set({ key: e.currentTarget.value })} />
      </label>
      <label title="Fire on the request or on its response (the drop buttons fix this).">
        Frame{" "}
        <select
          aria-label="Frame"
          value={f.on}
          onChange={(e) => set({ on: e.currentTarget.value as typeof f.on })}
        >
          <option value="">default</option>
          <option value="request">request</option>
          <option value="response">response</option>
        </select>
      </label>
      <label title="Fire on the next N matching frames.">
        Count{" "}
        <input
          type="number"
          min={1}
          max={1_000_000}
          value={f.count}
          onChange={(e) =>
            set({ count: Math.max(1, Math.min(1_000_000, Math.round(Number(e.currentTarget.value) || 1))) })
          }
        />
      </label>
      <label>
        Delay ms{" "}
        <input
          ref={delayRef}
          type="number"
          min={0}
          max={600_000}
          step={100}
          value={f.delayMs}
          onChange={(e) =>
            set({ delayMs: Math.max(0, Math.min(600_000, Math.round(Number(e.currentTarget.value) || 0))) })
          }
        />
      </label>
    </span>
  );
}
