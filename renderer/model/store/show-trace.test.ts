/** Switching the shown trace keeps each trace's open rows (the "Follow newest" collapse bug). */
import { describe, expect, it } from "vitest";
import type { TimelineView } from "../traces/timeline-view.js";
import { showTrace } from "./show-trace.js";

const view = {} as TimelineView;

describe("showTrace", () => {
  it("keeps the open rows of the trace left and gives them back when it is shown again", () => {
    const away = showTrace("t1", "t2", view, { expanded: new Set(["s1"]), expandedByTrace: new Map() });
    expect([...(away.expanded ?? [])]).toEqual([]);
    expect(away.selected).toBeUndefined();
    const back = showTrace("t2", "t1", view, {
      expanded: away.expanded ?? new Set(),
      expandedByTrace: away.expandedByTrace ?? new Map(),
    });
    expect([...(back.expanded ?? [])]).toEqual(["s1"]);
    expect(back.expandedByTrace?.has("t1")).toBe(false);
  });

  it("changes only the view when the same trace stays shown", () => {
    expect(showTrace("t1", "t1", view, { expanded: new Set(["s1"]), expandedByTrace: new Map() })).toEqual({
      view,
    });
  });
});
