/**
 * Fault injection: a Faults toggle in the toolbar, and the drawer it opens under the toolbar with
 * where rules go (the shown trace's tap by default, another live tap, or all live taps), every
 * field of a rule, the actions in three segmented groups with icons (frames, processes, retries),
 * and the hub's board: each armed rule in words with its tap and state, and the ones that fired
 * lately. Kill and restart ask first, naming the pids. An "armed" notice turns into "fired at … on
 * tap …" when the rule fires, or says it is gone when it left the board without firing.
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
import { useEffect, useId, useRef } from "react";
import { createStore, useStore } from "zustand";
import {
  type ArmedFault,
  clockTime,
  describeArmedFault,
  describeRuleInWords,
} from "../../../shared/faults/armed-fault.js";
import { FAULT_ACTION_TABLE, faultActionsWhere } from "../../../shared/faults/fault-actions.js";
import {
  type FaultAction,
  type FaultRule,
  type FaultRuleSpec,
  RETRY_ACTIONS,
} from "../../../shared/faults/fault-rule.js";
import { presentFromSearch } from "../../kit/theme/presenter.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useBridge, useInspector } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { FAULT_BUTTONS, type FaultButton } from "./fault-catalogue.js";
import { askFault, CONFIRMED_ACTIONS, faultConfirm, useFaultQuestion } from "./fault-confirm.js";
import {
  faultForm,
  type LiveTap,
  liveTaps,
  resolveTarget,
  sameLiveTaps,
  specFor,
  type TargetChoice,
  tapWords,
  useFaultForm,
} from "./fault-form.js";

const OPEN_KEY = "acp-inspector-faults-open";

/**
 * Whether the drawer starts open: closed in presenter mode; else as the user last left it; else
 * open on windows at least 800 px tall (a 720 px projector keeps its rows for the views).
 */
export function drawerStartsOpen(win: Window | undefined): boolean {
  if (!win) return true;
  if (presentFromSearch(win.location.search)) return false;
  const saved = win.localStorage.getItem(OPEN_KEY);
  if (saved === "1" || saved === "0") return saved === "1";
  return win.innerHeight >= 800;
}

/** The fault drawer under the toolbar: open or closed; `remember` keeps a choice the user made. */
export const faultDrawer = createStore<{ open: boolean; setOpen(open: boolean, remember?: boolean): void }>()(
  (set) => ({
    open: drawerStartsOpen(typeof window === "undefined" ? undefined : window),
    setOpen: (open, remember = false) => {
      if (remember) window.localStorage.setItem(OPEN_KEY, open ? "1" : "0");
      set({ open });
    },
  }),
);

/** The notice that said a rule was armed, so it can say when that rule fired or left the board. */
let armedNotice: { ruleId: string; text: string } | undefined;

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
          if (!r.immediate) armedNotice = { ruleId: r.rule.id, text: `${label} on ${where}: ${words}` };
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

function FaultConfirmBar() {
  const q = useFaultQuestion();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (q) confirmRef.current?.focus();
  }, [q]);
  if (!q) return null;
  const close = () => faultConfirm.setState({ question: null });
  return (
    <div
      className="fault-confirm"
      role="alertdialog"
      aria-label="Confirm fault"
      onKeyDown={(e) => {
        if (e.key === "Escape") close();
      }}
    >
      <span>{visibleText(q.text)}</span>{" "}
      <button
        ref={confirmRef}
        type="button"
        onClick={() => {
          close();
          q.run();
        }}
      >
        {visibleText(q.confirmLabel)}
      </button>{" "}
      <button type="button" onClick={close}>
        Cancel
      </button>
    </div>
  );
}

function firedWords(f: ArmedFault): string {
  const retry = RETRY_ACTIONS.has(f.rule.action) ? retryNote(f.rule) : "";
  return `${describeRuleInWords(f.rule)} · fired at ${f.lastFired ? clockTime(f.lastFired.at) : "?"} on tap ${f.lastFired?.name ?? "?"}${retry}`;
}

/** What arming a retry action says besides the rule: the unkeyed caveat, unless a key is named. */
function retryNote(rule: FaultRule): string {
  return rule.match.idempotencyKey === undefined
    ? ". If the prompt has no idempotencyKey, even a correct agent inserts it again."
    : "";
}

function ArmedRules() {
  const faults = useInspector((s) => s.faults);
  const recent = useInspector((s) => s.recentFaults);
  const setNotice = useInspector((s) => s.setNotice);
  const bridge = useBridge();
  const run = useOperation();
  // a notice when a rule fires: the newest firing, once
  const last = recent[0];
  const lastKey = last?.lastFired ? `${last.rule.id}@${last.lastFired.at}` : undefined;
  const seen = useRef<string | undefined>(lastKey);
  useEffect(() => {
    if (lastKey === seen.current) return;
    seen.current = lastKey;
    if (last?.lastFired) setNotice({ tone: "info", text: firedWords(last) });
  }, [lastKey, last, setNotice]);
  // an "armed" notice whose rule left the board without firing says so instead of staying "armed"
  const notice = useInspector((s) => s.notice);
  useEffect(() => {
    const a = armedNotice;
    if (!a || notice?.text !== a.text) return;
    if (faults.some((f) => f.rule.id === a.ruleId)) return;
    if (recent.some((f) => f.rule.id === a.ruleId && f.lastFired)) return; // the fired notice takes over
    armedNotice = undefined;
    setNotice({
      tone: "info",
      text: `${a.text.replace(/: armed \(acknowledged\).*$/, "")}: no longer armed (disarmed before it fired)`,
    });
  }, [faults, recent, notice, setNotice]);
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
      {recent.length > 0 ? (
        <ul aria-label="Fired lately">
          {recent.slice(0, 3).map((f) => (
            <li key={f.rule.id} className="muted">
              {visibleText(firedWords(f))}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function targetValue(c: TargetChoice): string {
  return typeof c === "string" ? c : `tap:${c.tap}`;
}

function TargetPicker({ live, shownLive }: { live: readonly LiveTap[]; shownLive: LiveTap | undefined }) {
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

function RuleFields() {
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
      onClick={() => faultDrawer.getState().setOpen(!open, true)}
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
    <fieldset id="fault-drawer" className="fault-drawer" hidden={!open}>
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
