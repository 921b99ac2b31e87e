/** The one pending fault confirmation of this window ("Kill the agent of tap X (pid 123)?"), asked before kill and restart. */
import { createStore, useStore } from "zustand";
import { faultActionsWhere } from "../../../shared/faults/fault-actions.js";

/** A question waiting for the user. */
export interface FaultQuestion {
  readonly text: string;
  readonly confirmLabel: string;
  readonly run: () => void;
}

export const faultConfirm = createStore<{ readonly question: FaultQuestion | null }>()(() => ({
  question: null,
}));

/** Asks `question`; its `run` runs only if the user confirms. */
export function askFault(question: FaultQuestion): void {
  faultConfirm.setState({ question });
}

/** Reads the pending question in a component. */
export function useFaultQuestion(): FaultQuestion | null {
  return useStore(faultConfirm, (s) => s.question);
}

/** Actions that stop a process: they are confirmed first, naming the pids (the fault-action table's `confirm`). */
export const CONFIRMED_ACTIONS: ReadonlySet<string> = new Set(
  faultActionsWhere((s) => s.confirm !== undefined),
);
