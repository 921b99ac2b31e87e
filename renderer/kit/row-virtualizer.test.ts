import { describe, expect, it } from "vitest";
import { tailRange } from "./row-virtualizer.js";

describe("tailRange", () => {
  it("renders the visible rows and the overscan on each side when not following the tail", () => {
    expect(tailRange({ startIndex: 10, endIndex: 14, overscan: 2, count: 100 }, false)).toEqual([
      8, 9, 10, 11, 12, 13, 14, 15, 16,
    ]);
  });

  it("renders the last rows while following, as many as the visible range spans plus the overscan above", () => {
    // The visible range is still where the view was before the new rows (40..44 of 100).
    expect(tailRange({ startIndex: 40, endIndex: 44, overscan: 2, count: 100 }, true)).toEqual([
      93, 94, 95, 96, 97, 98, 99,
    ]);
    // After the scroll to the bottom the visible range is the tail: the same rows, so no new render.
    expect(tailRange({ startIndex: 95, endIndex: 99, overscan: 2, count: 100 }, true)).toEqual(
      tailRange({ startIndex: 40, endIndex: 44, overscan: 2, count: 100 }, true),
    );
  });

  it("starts at the first row when the rows are fewer than the screen holds", () => {
    expect(tailRange({ startIndex: 0, endIndex: 9, overscan: 3, count: 4 }, true)).toEqual([0, 1, 2, 3]);
    expect(tailRange({ startIndex: 0, endIndex: 0, overscan: 3, count: 0 }, true)).toEqual([]);
  });
});
