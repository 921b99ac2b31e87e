/**
 * Fault injection: a Faults toggle in the toolbar, and the drawer it opens under the toolbar
 * (closed at the start, at every size; Escape closes it): the rule form (FaultRuleForm.tsx), the
 * actions in three segmented groups with icons (frames, processes, retries), and the hub's board
 * (ArmedRules.tsx: the armed rules and the last one fired). Kill and restart ask first, naming the
 * pids (FaultConfirmBar.tsx).
 */
import type { LucideIcon } from "lucide-react";
import {
  ArrowDownToLine,
  ArrowUpFromLine,
  ChevronDown,
  History,
  ListRestart,
  Repeat,
  RotateCw,
  Skull,
  Timer,
  Unplug,
  Zap,
} from "lucide-react";
import { useStore } from "zustand";
import { faultActionsWhere } from "../../../shared/faults/fault-actions.js";
import type { FaultAction } from "../../../shared/faults/fault-rule.js";
import { useInspector } from "../../model/store/inspector-store.js";
import { ArmedRules } from "./ArmedRules.js";
import { FaultConfirmBar } from "./FaultConfirmBar.js";
import { RuleFields, TargetPicker } from "./FaultRuleForm.js";
import { useArmFault, useLiveTaps } from "./fault-arming.js";
import { FAULT_BUTTONS, type FaultButton } from "./fault-catalogue.js";
import { faultDrawer } from "./fault-drawer-state.js";
import { faultForm, resolveTarget, specFor, useFaultForm } from "./fault-form.js";

/** The icon of each fault action. */
const ACTION_ICON: Readonly<Record<FaultAction, LucideIcon>> = {
  "drop-request": ArrowUpFromLine,
  "drop-response": ArrowDownToLine,
  delay: Timer,
  "disconnect-client": Unplug,
  "kill-agent": Skull,
  "restart-agent": RotateCw,
  retry: Repeat,
  "lose-and-retry": History,
  "restart-and-retry": ListRestart,
};

/** The actions in three groups, by where the fault-action table says each acts: on one frame, on a process or connection, and the inspector's own retries. */
const GROUPS: readonly { readonly label: string; readonly actions: readonly FaultAction[] }[] = [
  { label: "Frames", actions: faultActionsWhere((s) => s.acts === "frame") },
  { label: "Processes", actions: faultActionsWhere((s) => s.acts === "process") },
  { label: "Retries", actions: faultActionsWhere((s) => s.acts === "retry") },
];

/** The toolbar's Faults toggle: opens the drawer, and says how many rules are armed. */
export function FaultsToggle() {
  const open = useStore(faultDrawer, (s) => s.open);
  const armed = useInspector((s) => s.faults.length);
  return (
    <button
      type="button"
      className="faults-toggle"
      aria-expanded={open}
      aria-controls="fault-drawer"
      title="Fault injection: drop, delay, kill, restart, retry"
      onClick={() => faultDrawer.getState().setOpen(!open)}
    >
      <Zap className="icon" aria-hidden="true" />
      <span className="toolbar__label">Faults</span>
      {armed > 0 ? <span className="faults-toggle__count">{armed} armed</span> : null}
      <ChevronDown className="icon faults-toggle__chevron" aria-hidden="true" />
    </button>
  );
}

/** The fault drawer under the toolbar. */
export function FaultDrawer() {
  const live = useLiveTaps();
  const shown = useInspector((s) => s.traceId);
  const connected = useInspector((s) => s.connection === "connected");
  const setNotice = useInspector((s) => s.setNotice);
  const open = useStore(faultDrawer, (s) => s.open);
  const armFault = useArmFault();
  const on = useFaultForm((s) => s.on);
  const shownLive = live.find((t) => t.traceId === shown);
  const press = (b: FaultButton) => {
    const form = faultForm.getState();
    const where = resolveTarget(form.target, shown, live);
    if ("error" in where) return setNotice({ tone: "error", text: `${b.label}: ${where.error}` });
    armFault(b.label, specFor(b, form, where.target), where.taps);
  };
  const button = (action: FaultAction) => {
    const b = FAULT_BUTTONS.find((x) => x.action === action);
    if (!b) return null;
    const Icon = ACTION_ICON[action];
    return (
      <button key={action} type="button" title={b.explanation} disabled={!connected} onClick={() => press(b)}>
        <Icon className="icon" aria-hidden="true" />
        {b.action === "delay" && on === "request" ? "Delay next request" : b.label}
      </button>
    );
  };
  return (
    <fieldset
      id="fault-drawer"
      className="fault-drawer"
      hidden={!open}
      onKeyDown={(e) => {
        // Escape closes the drawer (a confirm question takes it first) and gives the focus back to the toggle
        if (e.key !== "Escape" || e.defaultPrevented) return;
        e.preventDefault();
        faultDrawer.getState().setOpen(false);
        document.querySelector<HTMLElement>('[aria-controls="fault-drawer"]')?.focus();
      }}
    >
      <legend className="visually-hidden">Fault injection</legend>
      <div className="fault-drawer__rule">
        <TargetPicker live={live} shownLive={shownLive} />
        <RuleFields />
      </div>
      <div className="fault-drawer__actions">
        {GROUPS.map((g) => (
          // biome-ignore lint/a11y/useSemanticElements: a segmented button group inside the fault fieldset
          <div key={g.label} className="segmented" role="group" aria-label={g.label}>
            {g.actions.map(button)}
          </div>
        ))}
        <ArmedRules />
      </div>
      <FaultConfirmBar />
    </fieldset>
  );
}
