import { describe, expect, it } from "vitest";
import { filterOf, isFiltering, NO_FILTER, patchFilter } from "./timeline-filter.js";

describe("the store's filter patches", () => {
  it("edits one query text: text replaces it, a field sets its term, NO_FILTER clears it", () => {
    const f = filterOf({ text: "haiku", outcome: "dropped" });
    expect(f.text).toBe("haiku outcome:dropped");
    expect(isFiltering(f)).toBe(true);
    const g = patchFilter(f, { verdict: "single", outcome: "" });
    expect(g.text).toBe("haiku verdict:single");
    // the empty query as a patch (what "Clear filters" passes) clears everything
    const cleared = patchFilter(g, NO_FILTER);
    expect(cleared.text).toBe("");
    expect(isFiltering(cleared)).toBe(false);
    // an unchanged text keeps the same filter object (no re-filtering)
    expect(patchFilter(g, { text: g.text })).toBe(g);
  });

  it("a query of problems only filters nothing but keeps its text to show them", () => {
    const f = filterOf({ text: "method: -" });
    expect(isFiltering(f)).toBe(false);
    expect(f.problems).toHaveLength(2);
  });
});
