/** The row an imported trace opens on (problems-first.ts). */
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import { firstProblemRow } from "./problems-first.js";
import { topRows } from "./timeline-rows.js";

describe("firstProblemRow", () => {
  it("opens on the first submission with the worst verdict, not the first row", () => {
    const t = new TraceScript().open(1);
    t.prompt(1, 1, "s", "fine", "K-1").inserted(1, 1, "m1");
    t.prompt(1, 2, "s", "again", "K-2").inserted(1, 2, "m2");
    t.prompt(1, 3, "s", "again", "K-2").inserted(1, 3, "m3"); // duplicate-insert: a violation
    const rows = topRows(scriptedTrace(t).view);
    const pick = firstProblemRow(rows);
    expect(pick?.kind === "submission" && pick.row.key).toBe("K-2");
    expect(pick?.kind === "submission" && pick.row.verdicts.map((v) => v.severity)).toContain("violation");
  });

  it("opens on the first submission when every verdict is ok, and on nothing without submissions", () => {
    const t = new TraceScript().open(1);
    t.request(1, "client->agent", 0, "initialize", { protocolVersion: 2 }).result(1, "agent->client", 0, {});
    expect(firstProblemRow(topRows(scriptedTrace(t).view))).toBeUndefined();
    t.prompt(1, 1, "s", "fine", "K-1").inserted(1, 1, "m1");
    t.prompt(1, 2, "s", "fine too", "K-2").inserted(1, 2, "m2");
    const pick = firstProblemRow(topRows(scriptedTrace(t).view));
    expect(pick?.kind === "submission" && pick.row.key).toBe("K-1");
  });
});
