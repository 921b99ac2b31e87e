/**
 * `replay --faults FILE`: a fault plan, a JSON file of fault rules in the shape the hub and
 * `proxy --fault` take (`FaultRuleSpec`, validated by `checkFaultSpec`: the same actions, match
 * fields, count and delayMs), plus one placement field of its own, `nth`: fire on the n-th
 * request of the source that matches (by method), which the replay places by that request's
 * idempotencyKey (kept exactly by the replay). Each rule becomes a `proxy --fault` argument.
 */
import { checkFaultSpec, type NormalizedFaultSpec } from "../faults/rule-validation.js";
import type { ReplayPlan } from "./replay-plan.js";
import { type ConnId, connId } from "./replay-plan.js";

/** The longest plan read; a larger file is refused (a plan is a handful of rules). */
export const MAX_PLAN_CHARS = 1_000_000;
/** The most rules a plan may hold. */
export const MAX_PLAN_RULES = 1000;

/** A plan's rules as `proxy --fault` arguments, the answers not to wait for, and what was placed how. */
export interface PlacedFaults {
  readonly rules: readonly string[];
  /** Requests whose answer a planned drop takes away: the replay does not wait for them. */
  readonly unawaited: ReadonlySet<ConnId>;
  readonly remarks: readonly string[];
}

/** Characters a `--fault` value cannot hold (its separators). */
const UNSAFE_VALUE = /[,=:]/;

/** Reads plan `text` and places its rules on the frames of `plan`; a string says why it cannot be used. */
export function placeFaultPlan(text: string, plan: ReplayPlan): PlacedFaults | string {
  if (text.length > MAX_PLAN_CHARS) return `a fault plan is at most ${MAX_PLAN_CHARS} characters`;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const entries = (doc as { faults?: unknown } | null)?.faults;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc) || !Array.isArray(entries))
    return 'a fault plan is a JSON object {"faults": [RULE, ...]}';
  const extra = Object.keys(doc).find((k) => k !== "faults" && k !== "version");
  if (extra !== undefined) return `unknown field "${extra}" (a plan has faults and version)`;
  if (entries.length > MAX_PLAN_RULES) return `at most ${MAX_PLAN_RULES} rules in a plan`;
  const rules: string[] = [];
  const unawaited = new Set<ConnId>();
  const remarks: string[] = [];
  for (const [i, entry] of entries.entries()) {
    const where = `faults[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      return `${where}: a fault rule must be a JSON object`;
    const { nth, ...rest } = entry as { nth?: unknown };
    if ("target" in rest)
      return `${where}: target is for the hub; a plan's rules are armed on the replay's tap`;
    const check = checkFaultSpec(rest);
    if (!check.ok) return `${where}: ${check.error}`;
    let spec = check.spec;
    if (spec.match.sessionId !== undefined)
      return `${where}: match.sessionId cannot be placed (the new agent mints new session ids); use nth or match.idempotencyKey`;
    let target: ConnId | undefined;
    if (nth !== undefined) {
      if (typeof nth !== "number" || !Number.isInteger(nth) || nth < 1 || nth > 1_000_000)
        return `${where}: nth must be an integer from 1 to 1000000`;
      if (spec.match.method === undefined)
        return `${where}: nth needs match.method (the n-th request of which method)`;
      if (spec.match.idempotencyKey !== undefined)
        return `${where}: give nth or match.idempotencyKey, not both`;
      const hit = nthRequest(plan, spec.match.method, nth);
      if (hit === undefined)
        return `${where}: the source has fewer than ${nth} ${spec.match.method} request(s)`;
      target = hit.id;
      if (hit.key !== undefined) {
        spec = { ...spec, match: { ...spec.match, idempotencyKey: hit.key } };
        remarks.push(`${where}: the ${ordinal(nth)} ${spec.match.method} is placed by its key ${hit.key}`);
      } else if (nth !== 1)
        return `${where}: the ${ordinal(nth)} ${spec.match.method} of the source has no idempotencyKey, so it cannot be told apart from the others; nth > 1 needs a keyed request`;
    } else if (spec.match.idempotencyKey !== undefined) {
      target = keyedRequest(plan, spec.match.idempotencyKey);
    }
    if (spec.action === "drop-response" && target !== undefined) unawaited.add(target);
    const arg = faultArg(spec);
    if (typeof arg !== "string") return `${where}: ${arg.error}`;
    rules.push(arg);
  }
  return { rules, unawaited, remarks };
}

/** The n-th sent request of `method` in the plan: its ConnId and key. */
function nthRequest(plan: ReplayPlan, method: string, n: number): { id: ConnId; key?: string } | undefined {
  let seen = 0;
  for (const s of plan.steps) {
    if (s.frame.kind !== "request" || s.frame.method !== method) continue;
    if (++seen < n) continue;
    const key = (s.frame.params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
    return { id: connId(s.conn, s.frame.id), ...(typeof key === "string" && { key }) };
  }
  return undefined;
}

/** The first sent request carrying `key`. */
function keyedRequest(plan: ReplayPlan, key: string): ConnId | undefined {
  for (const s of plan.steps)
    if (
      s.frame.kind === "request" &&
      (s.frame.params as { idempotencyKey?: unknown } | null)?.idempotencyKey === key
    )
      return connId(s.conn, s.frame.id);
  return undefined;
}

/** `spec` in `proxy --fault` syntax (docs/faults.md), or why it cannot be written so. */
function faultArg(spec: NormalizedFaultSpec): string | { error: string } {
  const parts: string[] = [];
  const m = spec.match;
  for (const [name, v] of [
    ["method", m.method],
    ["key", m.idempotencyKey],
    ["on", m.on],
  ] as const) {
    if (v === undefined) continue;
    if (UNSAFE_VALUE.test(v))
      return { error: `${name} ${JSON.stringify(v)} holds , = or : and cannot be armed` };
    parts.push(`${name}=${v}`);
  }
  parts.push(`count=${spec.count}`);
  if (spec.delayMs !== undefined) parts.push(`delay-ms=${spec.delayMs}`);
  return `${spec.action}:${parts.join(",")}`;
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${n % 10 > 3 ? "th" : s}`;
}
