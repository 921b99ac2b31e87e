import { describe, expect, it } from "vitest";
import { clearedWords } from "./cleared-words.js";

describe("clearedWords", () => {
  it("names the count and that the file keeps the records", () => {
    expect(clearedWords(95)).toBe("Cleared 95 records from this view; the trace file keeps them");
    expect(clearedWords(1)).toBe("Cleared 1 record from this view; the trace file keeps them");
  });
});
