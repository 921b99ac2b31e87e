/** Where a long reason is folded (FoldedText.tsx). */
import { describe, expect, it } from "vitest";
import { foldAt } from "./FoldedText.js";

describe("foldAt", () => {
  it("folds at the first line break, else at the limit; short text is whole", () => {
    expect(foldAt("one line", 160)).toBe(-1);
    expect(foldAt("first\nsecond", 160)).toBe(5);
    expect(foldAt("x".repeat(500), 160)).toBe(160);
    expect(foldAt(`${"x".repeat(200)}\nrest`, 160)).toBe(160);
  });
});
