/** The toolbar's fault buttons: the hub rule each one arms, a label and one sentence saying what it does. */
import type { FaultAction } from "../../shared/faults/fault-rule.js";

/** How a fault button reads and what it arms. */
export interface FaultButton {
  readonly action: FaultAction;
  readonly label: string;
  readonly explanation: string;
  /** Whether the rule takes the toolbar's method filter (lifecycle buttons act at once without one). */
  readonly usesMethod: boolean;
}

/** Every fault button, in toolbar order. */
export const FAULT_BUTTONS: readonly FaultButton[] = [
  {
    action: "drop-response",
    label: "Drop next response",
    explanation:
      "The agent's next answer (to the method in the box, if any) is recorded but not forwarded, so the client times out and retries.",
    usesMethod: true,
  },
  {
    action: "drop-request",
    label: "Drop next request",
    explanation:
      "The client's next request (of the method in the box, if any) is recorded but never reaches the agent.",
    usesMethod: true,
  },
  {
    action: "delay",
    label: "Delay next response",
    explanation:
      "The agent's next answer (to the method in the box, if any) is held back for the delay given.",
    usesMethod: true,
  },
  {
    action: "disconnect-client",
    label: "Reconnect client",
    explanation:
      "Closes the client's connection now; a well-behaved client reconnects and retries with the same key.",
    usesMethod: false,
  },
  {
    action: "kill-agent",
    label: "Kill agent",
    explanation: "Kills the agent process now (SIGKILL), as a crash would.",
    usesMethod: false,
  },
  {
    action: "restart-agent",
    label: "Restart agent",
    explanation: "Kills the agent now and starts it again, so keys must survive a restart.",
    usesMethod: false,
  },
  {
    action: "retry",
    label: "Retry latest prompt now",
    explanation:
      "The tap resends the latest prompt (of the method in the box) now, with its own JSON-RPC id; the agent's answer is recorded, not forwarded. A prompt without a key is inserted again, even by a correct agent.",
    usesMethod: true,
  },
  {
    action: "lose-and-retry",
    label: "Lose next answer, retry",
    explanation:
      "The agent's next answer (to the method in the box) is dropped, the tap resends the request and forwards the retry's answer under the client's id. A prompt without a key is inserted again, even by a correct agent.",
    usesMethod: true,
  },
  {
    action: "restart-and-retry",
    label: "Lose next answer, restart, retry",
    explanation:
      "After the agent's next answer (to the method in the box), the answer is dropped, the agent is killed and restarted, its sessions resumed, and the tap resends the request, forwarding its answer under the client's id. A prompt without a key is inserted again, even by a correct agent.",
    usesMethod: true,
  },
];

/** How long "Delay next response" holds the answer unless the toolbar says otherwise. */
export const DEFAULT_FAULT_DELAY_MS = 5_000;
