import { describe, expect, it } from "vitest";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { rowFaultItems } from "./row-faults.js";

function row(sessionId: string | null, key: string | null): TimelineRow {
  const submission = { sessionId, key, attempts: [] } as unknown as Submission;
  return {
    kind: "submission",
    row: submission,
    key: "s1",
    depth: 0,
    seq: 1,
    expandable: true,
  } as TimelineRow;
}

describe("a row's fault menu", () => {
  it("fills in the row's session and key", () => {
    const items = rowFaultItems(row("S1", "K-1"), ["drop-response", "drop-request", "delay", "kill-agent"]);
    expect(items.map((i) => i.label)).toEqual([
      "Drop the next response in this session",
      "Drop the next request in this session",
      "Drop the next response of this key",
      "Delay the next response of this key…",
      "Kill this agent",
      "Restart this agent",
    ]);
    expect(items[2]).toMatchObject({
      spec: {
        action: "drop-response",
        match: { method: "session/prompt", sessionId: "S1", idempotencyKey: "K-1" },
      },
    });
    expect(items[3]).toMatchObject({ form: { sessionId: "S1", key: "K-1", on: "response" } });
  });

  it("offers Retry this submission now only when the catalogue has a retry action", () => {
    expect(rowFaultItems(row("S1", "K-1"), ["drop-response"]).some((i) => i.label.startsWith("Retry"))).toBe(
      false,
    );
    const withRetry = rowFaultItems(row("S1", "K-1"), ["drop-response", "retry"]);
    expect(withRetry[0]).toMatchObject({
      label: "Retry this submission now",
      spec: { action: "retry", match: { sessionId: "S1", idempotencyKey: "K-1" } },
    });
    expect(rowFaultItems(row("S1", null), ["retry"])[0]?.label).toContain("unkeyed");
  });

  it("has no key items for an unkeyed submission", () => {
    const labels = rowFaultItems(row("S1", null)).map((i) => i.label);
    expect(labels).not.toContain("Drop the next response of this key");
    expect(labels).toContain("Delay the next response in this session…");
  });
});
