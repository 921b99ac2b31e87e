/**
 * The header's twin of record-check.ts: every reader of a header it did not write (a trace file's
 * first line, an import, a tap's `hello`) checks it field by field. The required fields make it a
 * header or not; a wrong optional field is dropped and named in `headerFaults`, so one bad field
 * (`"imported":{"lacks":"x"}`, `agent.command` as a string) never blanks the UI or ends `analyze`.
 */

import { isJsonObject } from "../protocol/json-object.js";
import { MAX_JSON_DEPTH, TOO_DEEP, valueTooDeep } from "./json-depth.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from "./record.js";

/** A checked header, or why the value is not a header this version reads. */
export type CheckedHeader = { readonly header: TraceHeader } | { readonly problem: string };

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** `typeof`, with null and arrays told apart. */
function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Checks any value as a trace header; a wrong optional field is left out and named in `headerFaults`. Never throws. */
export function checkHeader(value: unknown): CheckedHeader {
  if (!isJsonObject(value) || value.format !== TRACE_FORMAT)
    return { problem: `the first line is not a "${TRACE_FORMAT}" header` };
  const version = value.version;
  if (typeof version !== "number" || !Number.isFinite(version) || version > TRACE_FORMAT_VERSION)
    return {
      problem: `trace format version ${typeof version === "number" ? String(version) : kindOf(version)} is newer than this tool reads (${TRACE_FORMAT_VERSION})`,
    };
  const faults: string[] = [];
  const out: Record<string, unknown> = { format: TRACE_FORMAT, version };
  for (const [field, fallback] of [
    ["tool", "(unknown tool)"],
    ["startedAt", new Date(0).toISOString()],
  ] as const) {
    const v = value[field];
    if (typeof v === "string") out[field] = v;
    else {
      out[field] = fallback;
      faults.push(`${field} ${v === undefined ? "missing" : `must be a string, got ${kindOf(v)}`}`);
    }
  }
  const drop = (field: string, why: string) => faults.push(`${field} ${why}; left out`);
  for (const [field, v] of Object.entries(value)) {
    if (field === "format" || field === "version" || field === "tool" || field === "startedAt") continue;
    switch (field) {
      case "agent": {
        if (!isJsonObject(v)) drop(field, `must be an object, got ${kindOf(v)}`);
        else if (!isStrings(v.command)) drop(field, "command must be a list of strings");
        else if (v.cwd !== undefined && typeof v.cwd !== "string") {
          out.agent = { command: v.command };
          drop("agent.cwd", `must be a string, got ${kindOf(v.cwd)}`);
        } else out.agent = { command: v.command, ...(v.cwd !== undefined && { cwd: v.cwd }) };
        break;
      }
      case "transport":
      case "name":
        if (typeof v === "string") out[field] = v;
        else drop(field, `must be a string, got ${kindOf(v)}`);
        break;
      case "tapPid":
        if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) out[field] = v;
        else drop(field, "must be a positive integer");
        break;
      case "redacted":
        if (typeof v === "boolean") out[field] = v;
        else drop(field, `must be true or false, got ${kindOf(v)}`);
        break;
      case "imported":
        if (isJsonObject(v) && typeof v.format === "string" && isStrings(v.lacks))
          out[field] = { format: v.format, lacks: v.lacks };
        else drop(field, "must be {format: string, lacks: list of strings}");
        break;
      case "replayOf":
        if (
          isJsonObject(v) &&
          typeof v.trace === "string" &&
          typeof v.sha256 === "string" &&
          /^[0-9a-f]{64}$/.test(v.sha256)
        )
          out[field] = { trace: v.trace, sha256: v.sha256 };
        else drop(field, "must be {trace: string, sha256: 64 lowercase hex digits}");
        break;
      case "headerFaults":
        // A reader's own note: kept only when it is one, and added to below.
        if (isStrings(v)) faults.unshift(...v);
        break;
      default:
        // A field of a newer writer: kept as it is, unless no walker could follow it.
        if (valueTooDeep(v, MAX_JSON_DEPTH)) drop(field, TOO_DEEP);
        else out[field] = v;
    }
  }
  if (faults.length > 0) out.headerFaults = faults.map((f) => (f.length > 200 ? `${f.slice(0, 200)}…` : f));
  return { header: out as unknown as TraceHeader };
}
