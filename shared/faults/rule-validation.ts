import { checkIdempotencyKey } from "../protocol/idempotency-key.js";
import { isJsonObject } from "../protocol/json-object.js";
import {
  FAULT_ACTION_TABLE,
  FAULT_ACTIONS,
  type FaultAction,
  faultActionsWhere,
  isFaultAction,
} from "./fault-actions.js";
import {
  type FaultMatch,
  type FaultTarget,
  type FaultTrigger,
  MAX_FAULT_COUNT,
  MAX_FAULT_DELAY_MS,
} from "./fault-rule.js";

/** A validated spec with defaults applied: `count` set, `match.on` fixed for the drop actions. */
export interface NormalizedFaultSpec {
  readonly action: FaultAction;
  readonly match: FaultMatch;
  readonly count: number;
  readonly delayMs?: number;
  readonly target?: FaultTarget;
}

/** The outcome of validating untrusted rule input (from the CLI, the UI or the wire). */
export type FaultSpecCheck =
  | { readonly ok: true; readonly spec: NormalizedFaultSpec }
  | { readonly ok: false; readonly error: string };

const SPEC_FIELDS = new Set(["action", "match", "count", "delayMs", "target"]);
const MATCH_FIELDS = new Set(["method", "sessionId", "idempotencyKey", "on"]);

function fail(error: string): FaultSpecCheck {
  return { ok: false, error };
}

function checkText(name: string, v: unknown, max: number): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0 || v.length > max)
    return `${name} must be a string of 1 to ${max} characters`;
  return undefined;
}

function checkMatch(action: FaultAction, raw: unknown): { match: FaultMatch } | { error: string } {
  if (raw === undefined) raw = {};
  if (!isJsonObject(raw)) return { error: "match must be an object" };
  for (const k of Object.keys(raw)) if (!MATCH_FIELDS.has(k)) return { error: `unknown match field "${k}"` };
  const textError =
    checkText("match.method", raw.method, 200) ?? checkText("match.sessionId", raw.sessionId, 1000);
  if (textError) return { error: textError };
  if (raw.idempotencyKey !== undefined) {
    const key = checkIdempotencyKey(raw.idempotencyKey);
    if (key.kind !== "valid")
      return { error: `match.idempotencyKey: ${key.kind === "invalid" ? key.reason : "missing"}` };
  }
  if (raw.on !== undefined && raw.on !== "request" && raw.on !== "response")
    return { error: 'match.on must be "request" or "response"' };
  const spec = FAULT_ACTION_TABLE[action];
  if (spec.triggers.length === 0 && raw.on !== undefined)
    return { error: `${action} takes no on: it acts at once` };
  const method = raw.method ?? spec.defaultMethod;
  const fixed: FaultTrigger | undefined = spec.triggers.length === 1 ? spec.triggers[0] : undefined;
  if (fixed && raw.on !== undefined && raw.on !== fixed)
    return { error: `${action} always fires on the ${fixed}` };
  const match: FaultMatch = {
    ...(method !== undefined && { method: method as string }),
    ...(raw.sessionId !== undefined && { sessionId: raw.sessionId as string }),
    ...(raw.idempotencyKey !== undefined && { idempotencyKey: raw.idempotencyKey as string }),
    ...((fixed ?? raw.on) !== undefined && { on: (fixed ?? raw.on) as FaultTrigger }),
  };
  return { match };
}

/** Checks a rule's target: `{tap: ID}` or `{all: true}`. */
function checkTarget(raw: unknown): { target?: FaultTarget } | { error: string } {
  if (raw === undefined) return {};
  const wrong = { error: 'target must be {"tap": ID} or {"all": true}' };
  if (!isJsonObject(raw)) return wrong;
  const keys = Object.keys(raw);
  if (keys.length !== 1) return wrong;
  if (keys[0] === "all") return raw.all === true ? { target: { all: true } } : wrong;
  if (keys[0] !== "tap") return wrong;
  const e = checkText("target.tap", raw.tap, 200);
  return e ? { error: e } : { target: { tap: raw.tap as string } };
}

/** Validates an untrusted rule spec (strict: unknown fields are errors) and applies defaults. */
export function checkFaultSpec(input: unknown): FaultSpecCheck {
  if (!isJsonObject(input)) return fail("a fault rule must be a JSON object");
  for (const k of Object.keys(input)) if (!SPEC_FIELDS.has(k)) return fail(`unknown field "${k}"`);
  const action = input.action;
  if (!isFaultAction(action)) return fail(`action must be one of ${FAULT_ACTIONS.join(", ")}`);
  const a: FaultAction = action;
  const m = checkMatch(a, input.match);
  if ("error" in m) return fail(m.error);
  const count = input.count ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_FAULT_COUNT)
    return fail(`count must be an integer from 1 to ${MAX_FAULT_COUNT}`);
  const delayMs = input.delayMs;
  if (FAULT_ACTION_TABLE[a].needsDelay) {
    if (
      typeof delayMs !== "number" ||
      !Number.isInteger(delayMs) ||
      delayMs < 0 ||
      delayMs > MAX_FAULT_DELAY_MS
    )
      return fail(`${a} needs delayMs, an integer from 0 to ${MAX_FAULT_DELAY_MS}`);
  } else if (delayMs !== undefined) {
    return fail(`delayMs is only for the ${faultActionsWhere((s) => s.needsDelay).join(", ")} action`);
  }
  const t = checkTarget(input.target);
  if ("error" in t) return fail(t.error);
  return {
    ok: true,
    spec: {
      action: a,
      match: m.match,
      count,
      ...(FAULT_ACTION_TABLE[a].needsDelay && { delayMs: delayMs as number }),
      ...(t.target && { target: t.target }),
    },
  };
}

/** Validates a rule as the hub sends it to taps (spec fields plus id and armedAt). */
export function checkFaultRule(input: unknown): boolean {
  if (!isJsonObject(input) || typeof input.id !== "string" || typeof input.armedAt !== "string") return false;
  const { id: _id, armedAt: _armedAt, ...spec } = input;
  return checkFaultSpec(spec).ok;
}
