/** The "retrying / unresolved" filter (unresolved.ts, `outcome:unresolved`). */
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { filterOf, matchesFilter } from "../filter/timeline-filter.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import { topLevelOf, topRows } from "./timeline-rows.js";
import { unresolvedCount } from "./unresolved.js";

describe("retrying / unresolved", () => {
  it("keeps a pending prompt and one whose answer was lost, not one answered or settled by a retry", () => {
    const t = new TraceScript().open(1);
    t.prompt(1, 1, "s", "answered", "K-1").inserted(1, 1, "m1");
    t.prompt(1, 2, "s", "dropped then retried", "K-2").inserted(1, 2, "m2", { dropped: true });
    t.prompt(1, 3, "s", "dropped then retried", "K-2").inserted(1, 3, "m2");
    t.prompt(1, 4, "s", "still waiting", "K-3");
    t.close(1).open(2).prompt(2, 1, "s", "lost with its connection", "K-4");
    const trace = scriptedTrace(t);
    const rows = topLevelOf(topRows(trace.view));
    const f = filterOf({ outcome: "unresolved" });
    expect(f.problems).toEqual([]);
    const kept = rows.filter((r) => matchesFilter(r, f, () => undefined));
    expect(kept.map((r) => (r.kind === "submission" ? r.row.key : r.kind))).toEqual(["K-3", "K-4"]);
    expect(unresolvedCount(trace.view.submissions)).toBe(2);
  });
});
