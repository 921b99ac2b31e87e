/**
 * The one table of fault actions: per action what it acts on, which frames it may fire on, its
 * fields, the words of the board, the CLI's help and the UI's button, whether the UI asks first,
 * and how the tap decides a frame a rule of it matched. Every surface is derived from it: the rule
 * validator (`rule-validation.ts`), matching (`match-frame.ts`), the tap's rule set
 * (`fault-rule-set.ts`), lifecycle application and resends (`electron/tap/faults/fault-injector.ts`,
 * `connection-faults.ts`), `fault --help` and `proxy --help` (`fault-arg.ts`), the board's words
 * (`armed-fault.ts`), the UI's buttons, groups and confirmation (`renderer/app/toolbar/`), the stress
 * schedule's points, the Timeline's retry events, and the action list of docs/faults.md. Adding an
 * action means one entry here, its decision in the tap and its test;
 * `electron/tap/faults/fault-action-surfaces.test.ts` fails if a surface lacks one.
 */

/** Which frame of an exchange a rule fires on: the request (or notification) itself, or the response to it. */
export type FaultTrigger = "request" | "response";

/**
 * How the tap decides a frame a rule of this action matched. `drop`: swallow it; `delay`: hold it;
 * `act`: the connection's `ConnectionFaults` carries the action out (a lifecycle action, or a retry
 * on an answer); `immediate`: never decided on a frame (it acts when armed).
 */
export type FaultDecisionKind = "drop" | "delay" | "act" | "immediate";

/** The tap's lifecycle operation that carries out a process action (`LifecycleActions`). */
export type LifecycleOperation = "disconnectClient" | "killAgent" | "restartAgent";

/** What the board's words of a rule are made from (see `describeRuleInWords`). */
export interface RuleWords {
  /** `the next session/prompt response`, `the next 2 messages`. */
  readonly frame: string;
  /** ` in session s1 with key K` or empty. */
  readonly where: string;
  /** The rule's method, or the action's default method. */
  readonly method: string;
  readonly delayMs: number;
  /** The rule acts once, now (see `isImmediate`). */
  readonly immediate: boolean;
}

/** A toolbar button: its label, the sentence under it, and whether it takes the form's method filter. */
export interface FaultButtonWords {
  readonly label: string;
  readonly explanation: string;
  /** Whether the rule takes the toolbar's method filter (lifecycle buttons act at once without one). */
  readonly usesMethod: boolean;
}

/** One fault action. */
export interface FaultActionSpec {
  /** Where it acts: on one frame, on a process or connection, or as the inspector's own retry of a request. */
  readonly acts: "frame" | "process" | "retry";
  /** The frames a matching rule may fire on; one: fixed (the validator sets it); none: it takes no `on`. */
  readonly triggers: readonly FaultTrigger[];
  /** The method it acts on when the rule names none. */
  readonly defaultMethod?: string;
  /** Needs `delayMs` (no other action takes it). */
  readonly needsDelay: boolean;
  readonly decision: FaultDecisionKind;
  /** For a process action: the tap's operation that carries it out. */
  readonly lifecycle?: LifecycleOperation;
  /** For a retry on an answer: the tap resends the request once the answer is dropped, or after restarting the agent. */
  readonly resend?: "after-drop" | "after-restart";
  /** Without any match the rule acts once, now (a process action), or always (`retry`). */
  readonly immediate: "always" | "without-match" | "never";
  /** `fault --help`: what it does, as lines (the help puts the name in a column before the first). */
  readonly help: readonly string[];
  /** The board's words for a rule of it ("Drop the next session/prompt response in session s1"). */
  readonly words: (w: RuleWords) => string;
  readonly button: FaultButtonWords;
  /** When set, the UI asks first, saying it does this to the agent pids: "SIGKILL". */
  readonly confirm?: string;
}

/** The method the retry actions act on when the rule names none. */
export const RETRY_DEFAULT_METHOD = "session/prompt";

const BOTH: readonly FaultTrigger[] = ["request", "response"];

function processWords(verb: string): (w: RuleWords) => string {
  return (w) => (w.immediate ? `${verb} now` : `${verb} on ${w.frame}${w.where}`);
}

const UNKEYED = "A prompt without a key is inserted again, even by a correct agent.";

const TABLE = {
  "drop-response": {
    acts: "frame",
    triggers: ["response"],
    needsDelay: false,
    decision: "drop",
    immediate: "never",
    help: ["swallow the agent's answer (recorded as dropped)"],
    words: (w) => `Drop ${w.frame}${w.where}`,
    button: {
      label: "Drop next response",
      explanation:
        "The agent's next answer (to the method in the box, if any) is recorded but not forwarded, so the client times out and retries.",
      usesMethod: true,
    },
  },
  "drop-request": {
    acts: "frame",
    triggers: ["request"],
    needsDelay: false,
    decision: "drop",
    immediate: "never",
    help: ["the agent never receives the client's request"],
    words: (w) => `Drop ${w.frame}${w.where}`,
    button: {
      label: "Drop next request",
      explanation:
        "The client's next request (of the method in the box, if any) is recorded but never reaches the agent.",
      usesMethod: true,
    },
  },
  delay: {
    acts: "frame",
    triggers: BOTH,
    needsDelay: true,
    decision: "delay",
    immediate: "never",
    help: [
      "hold the matching frame --delay-ms milliseconds (recorded when held; its",
      "release, or the connection closing first, is recorded too)",
    ],
    words: (w) => `Delay ${w.frame}${w.where} by ${w.delayMs} ms`,
    button: {
      label: "Delay next response",
      explanation:
        "The agent's next answer (to the method in the box, if any) is held back for the delay given.",
      usesMethod: true,
    },
  },
  "disconnect-client": {
    acts: "process",
    triggers: BOTH,
    needsDelay: false,
    decision: "act",
    lifecycle: "disconnectClient",
    immediate: "without-match",
    help: ["close the client's connection (the stdio tap exits)"],
    words: processWords("Disconnect the client"),
    button: {
      label: "Reconnect client",
      explanation:
        "Closes the client's connection now; a well-behaved client reconnects and retries with the same key.",
      usesMethod: false,
    },
  },
  "kill-agent": {
    acts: "process",
    triggers: BOTH,
    needsDelay: false,
    decision: "act",
    lifecycle: "killAgent",
    immediate: "without-match",
    help: ["SIGKILL the agent"],
    words: processWords("Kill the agent"),
    button: {
      label: "Kill agent",
      explanation: "Kills the agent process now (SIGKILL), as a crash would.",
      usesMethod: false,
    },
    confirm: "SIGKILL",
  },
  "restart-agent": {
    acts: "process",
    triggers: BOTH,
    needsDelay: false,
    decision: "act",
    lifecycle: "restartAgent",
    immediate: "without-match",
    help: [
      "SIGKILL the agent, respawn the same command, replay the client's initialize",
      "and resume (v2) or load (v1) every session the client opened",
    ],
    words: processWords("Restart the agent"),
    button: {
      label: "Restart agent",
      explanation: "Kills the agent now and starts it again, so keys must survive a restart.",
      usesMethod: false,
    },
    confirm: "SIGKILL and respawn",
  },
  retry: {
    acts: "retry",
    triggers: [],
    defaultMethod: RETRY_DEFAULT_METHOD,
    needsDelay: false,
    decision: "immediate",
    immediate: "always",
    help: [
      "now: resend the latest matching client request (default method session/prompt;",
      "--session/--key pick the submission) with a tap-owned id; the agent's answer is",
      "recorded, not forwarded. Sent while the original is held: the RFD's retry while held",
    ],
    words: (w) => `Resend the latest ${w.method}${w.where} now (a retry by the inspector)`,
    button: {
      label: "Retry latest prompt now",
      explanation: `The tap resends the latest prompt (of the method in the box) now, with its own JSON-RPC id; the agent's answer is recorded, not forwarded. ${UNKEYED}`,
      usesMethod: true,
    },
  },
  "lose-and-retry": {
    acts: "retry",
    triggers: ["response"],
    defaultMethod: RETRY_DEFAULT_METHOD,
    needsDelay: false,
    decision: "act",
    resend: "after-drop",
    immediate: "never",
    help: [
      "on the answer to a matching request: drop it, resend the request, forward the",
      "retry's answer to the client under the client's own id",
    ],
    words: (w) => `Lose the answer to the next ${w.method}${w.where} and resend it`,
    button: {
      label: "Lose next answer, retry",
      explanation: `The agent's next answer (to the method in the box) is dropped, the tap resends the request and forwards the retry's answer under the client's id. ${UNKEYED}`,
      usesMethod: true,
    },
  },
  "restart-and-retry": {
    acts: "retry",
    triggers: ["response"],
    defaultMethod: RETRY_DEFAULT_METHOD,
    needsDelay: false,
    decision: "act",
    resend: "after-restart",
    immediate: "never",
    help: [
      "on the answer to a matching prompt: drop it, restart the agent as restart-agent",
      "does, resend the prompt, forward its answer under the client's own id",
    ],
    words: (w) => `Lose the answer to the next ${w.method}${w.where}, restart the agent and resend it`,
    button: {
      label: "Lose next answer, restart, retry",
      explanation: `After the agent's next answer (to the method in the box), the answer is dropped, the agent is killed and restarted, its sessions resumed, and the tap resends the request, forwarding its answer under the client's id. ${UNKEYED}`,
      usesMethod: true,
    },
  },
} as const satisfies Readonly<Record<string, FaultActionSpec>>;

/** One fault: swallow an agent answer, swallow a client request, hold a frame, act on a process or connection, or retry. */
export type FaultAction = keyof typeof TABLE;

/** The actions whose table entry decides a matched frame with `K` (e.g. the ones the connection carries out: `act`). */
export type ActionsDeciding<K extends FaultDecisionKind> = {
  [A in FaultAction]: (typeof TABLE)[A]["decision"] extends K ? A : never;
}[FaultAction];

/** Every fault action, by name. */
export const FAULT_ACTION_TABLE: Readonly<Record<FaultAction, FaultActionSpec>> = TABLE;

/** Every fault the tap can apply, in table order. */
export const FAULT_ACTIONS = Object.keys(TABLE) as readonly FaultAction[];

/** The actions whose table entry satisfies `test`, in table order. */
export function faultActionsWhere(test: (spec: FaultActionSpec) => boolean): readonly FaultAction[] {
  return FAULT_ACTIONS.filter((a) => test(FAULT_ACTION_TABLE[a]));
}

/** True for a string that names a fault action. */
export function isFaultAction(name: unknown): name is FaultAction {
  return typeof name === "string" && (FAULT_ACTIONS as readonly string[]).includes(name);
}
