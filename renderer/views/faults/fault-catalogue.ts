/** The toolbar's fault buttons: the hub rule each one arms, a label and one sentence saying what it does. */
import {
  FAULT_ACTION_TABLE,
  FAULT_ACTIONS,
  type FaultAction,
  type FaultButtonWords,
} from "../../../shared/faults/fault-actions.js";

/** How a fault button reads and what it arms. */
export interface FaultButton extends FaultButtonWords {
  readonly action: FaultAction;
}

/** Every fault button, in the fault-action table's order, worded by the table. */
export const FAULT_BUTTONS: readonly FaultButton[] = FAULT_ACTIONS.map((action) => ({
  action,
  ...FAULT_ACTION_TABLE[action].button,
}));

/** How long "Delay next response" holds the answer unless the toolbar says otherwise. */
export const DEFAULT_FAULT_DELAY_MS = 5_000;
