/**
 * The fault-rule model: what the inspector can do to a live session at message level, and which
 * frames a rule acts on. Rules are armed on the hub and applied inside the tap (see docs/hub.md).
 */

import {
  FAULT_ACTION_TABLE,
  FAULT_ACTIONS,
  type FaultAction,
  type FaultActionSpec,
  type FaultTrigger,
  faultActionsWhere,
  RETRY_DEFAULT_METHOD,
} from "./fault-actions.js";

export type { FaultAction, FaultTrigger };
export { FAULT_ACTIONS, RETRY_DEFAULT_METHOD };

/** The actions that act on a connection or process rather than on a single frame. */
export const LIFECYCLE_ACTIONS: ReadonlySet<FaultAction> = new Set(
  faultActionsWhere((s) => s.acts === "process"),
);

/**
 * The inspector's own retries (docs/faults.md#retries-made-by-the-inspector): the tap resends a
 * client request itself with a tap-owned id (`INSPECTOR_RETRY_ID_PREFIX`). `retry` resends the
 * latest matching request now; `lose-and-retry` drops the agent's answer and resends;
 * `restart-and-retry` drops the answer, restarts the agent, resumes its sessions and resends. The
 * retry's answer reaches the client (rewritten to the client's id) only for the last two.
 */
export const RETRY_ACTIONS: ReadonlySet<FaultAction> = new Set(faultActionsWhere((s) => s.acts === "retry"));

/** What the CLI and UI say before and after a retry of a prompt that carries no idempotencyKey. */
export const UNKEYED_RETRY_WARNING =
  "a prompt without an idempotencyKey cannot be told apart from a new one: retrying it inserts the user message again, even on a correct agent";

/** What a frame must look like for a rule to fire. Every field present must match; absent fields match anything. */
export interface FaultMatch {
  /** The JSON-RPC method; a response matches by the method of the request it answers. */
  readonly method?: string;
  /** `params.sessionId` (of the request a response answers). */
  readonly sessionId?: string;
  /** `params.idempotencyKey` (of the request a response answers), compared exactly. */
  readonly idempotencyKey?: string;
  /** Fire on requests/notifications or on responses only; fixed for the two drop actions. */
  readonly on?: FaultTrigger;
}

/**
 * Which taps a hub rule is for: one tap, by the hub's id for it (the trace id `taps` lists), or,
 * only when asked for explicitly, every tap attached when the rule is armed. The hub sends a rule
 * to its targets only. Rules armed on the command line (`proxy --fault`) have none.
 */
export type FaultTarget = { readonly tap: string } | { readonly all: true };

/** A rule as a user asks for it (CLI, UI): no id yet, defaults not applied. */
export interface FaultRuleSpec {
  readonly action: FaultAction;
  /** Required by the hub; absent on `proxy --fault`. */
  readonly target?: FaultTarget;
  readonly match?: FaultMatch;
  /** Fire on the next N matching frames, then disarm (default 1). */
  readonly count?: number;
  /** Milliseconds to hold the frame; required for `delay`, not allowed otherwise. */
  readonly delayMs?: number;
}

/** An armed rule, as the hub lists it and sends it to taps. */
export interface FaultRule {
  /** Hub-assigned, e.g. `r3`. */
  readonly id: string;
  readonly action: FaultAction;
  readonly match: FaultMatch;
  /** How many more matching frames it fires on; the rule is disarmed when this reaches 0. */
  readonly count: number;
  readonly delayMs?: number;
  /** The taps it was armed on (see `FaultTarget`); absent for `proxy --fault` rules. */
  readonly target?: FaultTarget;
  /** When the rule was armed, ISO 8601. */
  readonly armedAt: string;
}

/** Largest `count` a rule may have. */
export const MAX_FAULT_COUNT = 1_000_000;
/** Largest `delayMs` a rule may have (10 minutes). */
export const MAX_FAULT_DELAY_MS = 600_000;

/**
 * A lifecycle rule with no match at all fires once, as soon as the tap receives it ("kill the agent
 * now"), instead of waiting for a frame. `retry` is always immediate: its match picks the request to
 * resend, among those the tap has seen.
 */
export function isImmediate(rule: Pick<FaultRule, "action" | "match">): boolean {
  const entry: FaultActionSpec | undefined = FAULT_ACTION_TABLE[rule.action];
  const when = entry?.immediate ?? "never";
  if (when !== "without-match") return when === "always";
  const m = rule.match;
  return (
    m.method === undefined &&
    m.sessionId === undefined &&
    m.idempotencyKey === undefined &&
    m.on === undefined
  );
}

/** One-line human description of a rule, for `fault list` and logs. */
export function describeRule(rule: FaultRule): string {
  const m = rule.match;
  const parts: string[] = [rule.action];
  if (rule.delayMs !== undefined) parts.push(`${rule.delayMs}ms`);
  if (m.on) parts.push(`on=${m.on}`);
  if (m.method) parts.push(`method=${m.method}`);
  if (m.sessionId) parts.push(`session=${m.sessionId}`);
  if (m.idempotencyKey) parts.push(`key=${m.idempotencyKey}`);
  parts.push(isImmediate(rule) ? "(now)" : `x${rule.count}`);
  return parts.join(" ");
}
