/**
 * The fault form of the toolbar, kept outside React so a Timeline row's menu can fill it in
 * ("Delay the next response of this key…"): every field of a rule, and the tap it goes to.
 * `specFor` turns a button and the form into the rule the hub is asked to arm.
 */
import { createStore, useStore } from "zustand";
import type { FaultRuleSpec, FaultTarget, FaultTrigger } from "../../../shared/faults/fault-rule.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { TraceEntry } from "../../model/traces/trace-catalog.js";
import { DEFAULT_FAULT_DELAY_MS, type FaultButton } from "./fault-catalogue.js";

/** Which taps a rule goes to: the shown trace's tap (the default), every live tap, or one by trace id. */
export type TargetChoice = "shown" | "all" | { readonly tap: string };

/** Every field of a rule as the form holds it (empty text: match anything). */
export interface FaultFormFields {
  readonly method: string;
  readonly sessionId: string;
  readonly key: string;
  /** `""`: the action's default (delay: the response). */
  readonly on: "" | FaultTrigger;
  readonly count: number;
  readonly delayMs: number;
  readonly target: TargetChoice;
}

interface FaultFormState extends FaultFormFields {
  set(patch: Partial<FaultFormFields>): void;
  /** Bumped when a row's menu filled the form in, so the form shows it and takes the focus. */
  readonly filled: number;
  fill(patch: Partial<FaultFormFields>): void;
}

export const INITIAL_FAULT_FORM: FaultFormFields = {
  method: "session/prompt",
  sessionId: "",
  key: "",
  on: "",
  count: 1,
  delayMs: DEFAULT_FAULT_DELAY_MS,
  target: "shown",
};

/** The one fault form of this window. */
export const faultForm = createStore<FaultFormState>()((set) => ({
  ...INITIAL_FAULT_FORM,
  filled: 0,
  set: (patch) => set(patch),
  fill: (patch) => set((s) => ({ ...INITIAL_FAULT_FORM, ...patch, filled: s.filled + 1 })),
}));

/** Reads the fault form in a component. */
export function useFaultForm<T>(select: (s: FaultFormState) => T): T {
  return useStore(faultForm, select);
}

/** A live tap, as the fault controls name it. */
export interface LiveTap {
  readonly traceId: string;
  readonly name: string;
  readonly agentPids: readonly number[];
}

/** The taps attached to the hub now, newest first. */
export function liveTaps(traces: readonly TraceEntry[]): LiveTap[] {
  return traces
    .filter((t) => t.source === "live" && t.attached)
    .map((t) => ({ traceId: t.id, name: t.label, agentPids: t.agentPids }));
}

/** Whether two lists name the same taps, with the same names and Agent processes, in the same order. */
export function sameLiveTaps(a: readonly LiveTap[], b: readonly LiveTap[]): boolean {
  return (
    a.length === b.length &&
    a.every((t, i) => {
      const u = b[i] as LiveTap;
      return (
        t.traceId === u.traceId &&
        t.name === u.name &&
        t.agentPids.length === u.agentPids.length &&
        t.agentPids.every((pid, j) => pid === u.agentPids[j])
      );
    })
  );
}

/** The target of a choice: the hub's target and the taps it names, or why there is none. */
export function resolveTarget(
  choice: TargetChoice,
  shownTraceId: string | undefined,
  live: readonly LiveTap[],
): { readonly target: FaultTarget; readonly taps: readonly LiveTap[] } | { readonly error: string } {
  if (choice === "all")
    return live.length > 0 ? { target: { all: true }, taps: live } : { error: "no tap is live" };
  const id = choice === "shown" ? shownTraceId : choice.tap;
  const tap = live.find((t) => t.traceId === id);
  if (tap) return { target: { tap: tap.traceId }, taps: [tap] };
  return {
    error:
      choice === "shown"
        ? "the shown trace's tap is not live; pick a live tap or all live taps"
        : "that tap is no longer live",
  };
}

/** Words for the taps a rule goes to: `tap demo @ repo (pid 12)`, `all live taps (2)`. */
export function tapWords(taps: readonly LiveTap[], all: boolean): string {
  const one = (t: LiveTap) =>
    `tap ${visibleText(t.name)} (${t.agentPids.length === 0 ? "no agent running" : `pid ${t.agentPids.join(", ")}`})`;
  return all ? `all live taps (${taps.length})` : taps.map(one).join(", ");
}

/** The rule a fault button arms with the form's fields, on `target`. */
export function specFor(b: FaultButton, f: FaultFormFields, target: FaultTarget): FaultRuleSpec {
  if (!b.usesMethod) return { action: b.action, target };
  const trim = (s: string) => s.trim();
  const on =
    b.action === "delay" ? f.on || "response" : b.action.startsWith("drop-") ? undefined : f.on || undefined;
  const match = {
    ...(trim(f.method) !== "" && { method: trim(f.method) }),
    ...(trim(f.sessionId) !== "" && { sessionId: trim(f.sessionId) }),
    ...(trim(f.key) !== "" && { idempotencyKey: trim(f.key) }),
    ...(on !== undefined && { on }),
  };
  return {
    action: b.action,
    match,
    target,
    ...(f.count > 1 && { count: f.count }),
    ...(b.action === "delay" && { delayMs: f.delayMs }),
  };
}
