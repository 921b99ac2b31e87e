import { FAULT_ACTIONS } from "../../../shared/faults/fault-actions.js";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { checkFaultSpec } from "../../../shared/faults/rule-validation.js";

/** The option names a `--fault` argument accepts, and the spec field each one sets. */
const FIELDS: Readonly<Record<string, string>> = {
  method: "method",
  session: "sessionId",
  sessionId: "sessionId",
  key: "idempotencyKey",
  idempotencyKey: "idempotencyKey",
  on: "on",
  count: "count",
  "delay-ms": "delayMs",
  delayMs: "delayMs",
};

/**
 * Parses one `proxy --fault ACTION[:name=value,...]` argument into an armed rule with id `cli-<n>`,
 * e.g. `drop-response:method=session/prompt,count=1`. Names: method, session, key, on, count,
 * delay-ms. Returns an error message instead when the rule is not valid.
 */
export function parseFaultArg(arg: string, n: number, now = new Date()): FaultRule | string {
  const colon = arg.indexOf(":");
  const action = colon < 0 ? arg : arg.slice(0, colon);
  const match: Record<string, string> = {};
  const spec: Record<string, unknown> = { action, match };
  if (colon >= 0 && colon < arg.length - 1) {
    for (const part of arg.slice(colon + 1).split(",")) {
      const eq = part.indexOf("=");
      const name = eq < 0 ? part : part.slice(0, eq);
      const field = FIELDS[name];
      if (eq < 0 || !field)
        return `--fault ${arg}: expected name=value with name one of method, session, key, on, count, delay-ms (got '${part}')`;
      const value = part.slice(eq + 1);
      if (field === "count" || field === "delayMs") {
        if (!/^\d+$/.test(value)) return `--fault ${arg}: ${name} must be a non-negative integer`;
        spec[field] = Number(value);
      } else match[field] = value;
    }
  }
  const check = checkFaultSpec(spec);
  if (!check.ok) return `--fault ${arg}: ${check.error}`;
  return { id: `cli-${n}`, ...check.spec, armedAt: now.toISOString() };
}

/**
 * The start of `proxy --help`'s `--fault` entry, from the fault-action table: the syntax, every
 * action and the names, word-wrapped to lines of at most `width` characters after `indent`.
 */
export function faultArgSyntaxLines(indent: string, width = 80): string[] {
  const text = `ACTION[:name=value,...] with ACTION one of ${FAULT_ACTIONS.join(", ")} and names method, session, key, on (request|response),`;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}
