/** The toolbar's fault buttons: a label and one sentence saying what each fault does. */
import type { FaultAction } from "../../shared/app/operation.js";

/** How a fault button reads. */
export interface FaultButton {
  readonly action: FaultAction;
  readonly label: string;
  readonly explanation: string;
}

/** Every fault button, in toolbar order. */
export const FAULT_BUTTONS: readonly FaultButton[] = [
  {
    action: "drop-next-response",
    label: "Drop next response",
    explanation:
      "The agent's next response is recorded but not forwarded, so the client times out and retries.",
  },
  {
    action: "drop-next-request",
    label: "Drop next request",
    explanation: "The client's next request is recorded but never reaches the agent.",
  },
  {
    action: "delay-next-response",
    label: "Delay next response",
    explanation: "The agent's next response is held back for a few seconds before it is forwarded.",
  },
  {
    action: "reconnect-client",
    label: "Reconnect client",
    explanation:
      "Closes the client's connection; a well-behaved client reconnects and retries with the same key.",
  },
  {
    action: "kill-agent",
    label: "Kill agent",
    explanation: "Kills the agent process (SIGKILL), as a crash would.",
  },
  {
    action: "restart-agent",
    label: "Restart agent",
    explanation: "Kills the agent and starts it again, so keys must survive a restart.",
  },
];

/** How long `delay-next-response` holds the response. */
export const DEFAULT_FAULT_DELAY_MS = 5_000;
