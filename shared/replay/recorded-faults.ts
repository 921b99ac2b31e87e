/**
 * `replay --faults recorded`: the source trace's fault records as `proxy --fault` rules
 * (docs/faults.md syntax), placed at the same logical point. A rule matches the frame's method and
 * side and, when the request carried one, its idempotencyKey (kept exactly by the replay), so a
 * keyed fault fires on the same submission again; an unkeyed one fires on the next frame of that
 * method, in the order the source's faults came.
 */
import { FAULT_ACTION_TABLE, isFaultAction } from "../faults/fault-actions.js";
import { classifyFrame } from "../protocol/frame.js";
import type { TraceRecord } from "../trace/record.js";
import { connId } from "./replay-plan.js";

/** The rules to arm, and a sentence per fault that could not be placed (or only approximately). */
export interface RecordedFaults {
  readonly rules: readonly string[];
  readonly remarks: readonly string[];
}

/** Characters a `--fault` value cannot hold (its separators). */
const UNSAFE_VALUE = /[,=:]/;

/** Translates every fault record of `records` that is an application (not a delay's fate record). */
export function recordedFaultRules(records: readonly TraceRecord[]): RecordedFaults {
  const bySeq = new Map<number, TraceRecord>();
  /** Client requests by ConnId: method and key. */
  const requests = new Map<string, { method: string; key?: string }>();
  const rules: string[] = [];
  const remarks: string[] = [];
  for (const r of records) {
    if (r.type === "frame") {
      bySeq.set(r.seq, r);
      if (r.dir === "client->agent" && r.origin === undefined && r.encoding === undefined) {
        const f = classifyFrame(r.raw);
        if (f.kind === "request") {
          const key = (f.params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
          requests.set(connId(r.conn, f.id), { method: f.method, ...(typeof key === "string" && { key }) });
        }
      }
      continue;
    }
    if (r.type !== "fault" || r.fate !== undefined) continue;
    const action = r.action;
    if (!isFaultAction(action)) {
      remarks.push(`fault #${r.seq} (${r.action}): an action this tool does not know; not re-applied`);
      continue;
    }
    const target = r.frameSeq === undefined ? undefined : bySeq.get(r.frameSeq);
    if (target?.type !== "frame") {
      remarks.push(`fault #${r.seq} (${action}): no frame recorded for it; not re-applied`);
      continue;
    }
    const f = classifyFrame(target.raw);
    let on: "request" | "response";
    let request: { method: string; key?: string } | undefined;
    if (f.kind === "request" || f.kind === "notification") {
      on = "request";
      const key =
        f.kind === "request" ? (f.params as { idempotencyKey?: unknown } | null)?.idempotencyKey : undefined;
      request = { method: f.method, ...(typeof key === "string" && { key }) };
    } else if (f.kind === "result" || f.kind === "error") {
      on = "response";
      const id = target.replaces !== undefined && target.origin !== "inspector" ? target.replaces : f.id;
      request = requests.get(connId(target.conn, id));
    } else {
      remarks.push(`fault #${r.seq} (${action}): its frame is not a JSON-RPC message; not re-applied`);
      continue;
    }
    if (!request) {
      remarks.push(
        `fault #${r.seq} (${action}): the request its frame answers is not in the trace; not re-applied`,
      );
      continue;
    }
    const parts = [`method=${request.method}`];
    if (request.key !== undefined && !UNSAFE_VALUE.test(request.key)) parts.push(`key=${request.key}`);
    else
      remarks.push(
        `fault #${r.seq} (${action}): ${request.key === undefined ? "no idempotencyKey" : "a key with , = or :"}: re-applied on the next ${request.method} ${on} in order, not by key`,
      );
    // Actions with one fixed side take no `on`; the retries fire on the answer.
    if (FAULT_ACTION_TABLE[action].triggers.length > 1) parts.push(`on=${on}`);
    if (action === "delay") parts.push(`delay-ms=${delayOf(r.detail)}`);
    if (UNSAFE_VALUE.test(request.method)) {
      remarks.push(
        `fault #${r.seq} (${action}): method ${request.method} cannot be written as a rule; not re-applied`,
      );
      continue;
    }
    rules.push(`${action}:${parts.join(",")},count=1`);
  }
  return { rules, remarks };
}

/** The held time of a delay's first record (`holding N ms`), 1000 when it does not say. */
function delayOf(detail: string | undefined): number {
  const m = /holding (\d+) ms/.exec(detail ?? "");
  return m ? Number(m[1]) : 1000;
}
