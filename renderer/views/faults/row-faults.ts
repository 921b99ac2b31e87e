/**
 * The faults a Timeline row's menu offers, filled in for that row: its session and key, on the
 * shown trace's tap. Items either arm at once (`spec`) or fill the toolbar's fault form for the
 * user to finish (`form`, their label ends with "…"). "Retry this submission now" appears only
 * when the rule catalogue has a `retry` action.
 */
import { FAULT_ACTIONS, type FaultRuleSpec } from "../../../shared/faults/fault-rule.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import type { FaultFormFields } from "./fault-form.js";

/** One entry of a row's fault menu; the target is added when it is chosen. */
export type RowFaultItem =
  | { readonly label: string; readonly spec: Omit<FaultRuleSpec, "target"> }
  | { readonly label: string; readonly form: Partial<FaultFormFields> };

/** The submission a row stands for (a submission row, or one of its attempts). */
function submissionOf(row: TimelineRow) {
  if (row.kind === "submission") return row.row;
  if (row.kind === "attempt") return row.submission;
  return undefined;
}

/** True for the rows that have a fault menu. */
export function hasFaultMenu(row: TimelineRow): boolean {
  return submissionOf(row) !== undefined;
}

/** The menu of one row; empty for rows without one. */
export function rowFaultItems(row: TimelineRow, actions: readonly string[] = FAULT_ACTIONS): RowFaultItem[] {
  const s = submissionOf(row);
  if (!s) return [];
  const method = "session/prompt";
  const session = s.sessionId !== null ? { sessionId: s.sessionId } : {};
  const key = s.key !== null ? { idempotencyKey: s.key } : {};
  const items: RowFaultItem[] = [];
  if (actions.includes("retry") && s.sessionId !== null)
    items.push({
      label:
        s.key !== null
          ? "Retry this submission now"
          : "Retry this submission now (unkeyed: a correct agent inserts again)",
      spec: { action: "retry" as FaultRuleSpec["action"], match: { method, ...session, ...key } },
    });
  items.push(
    {
      label: "Drop the next response in this session",
      spec: { action: "drop-response", match: { method, ...session } },
    },
    {
      label: "Drop the next request in this session",
      spec: { action: "drop-request", match: { method, ...session } },
    },
  );
  if (s.key !== null)
    items.push({
      label: "Drop the next response of this key",
      spec: { action: "drop-response", match: { method, ...session, ...key } },
    });
  items.push({
    label:
      s.key !== null ? "Delay the next response of this key…" : "Delay the next response in this session…",
    form: { method, sessionId: s.sessionId ?? "", key: s.key ?? "", on: "response", target: "shown" },
  });
  items.push(
    { label: "Kill this agent", spec: { action: "kill-agent" } },
    { label: "Restart this agent", spec: { action: "restart-agent" } },
  );
  return items;
}
