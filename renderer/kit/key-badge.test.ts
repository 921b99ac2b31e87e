import { describe, expect, it } from "vitest";
import { shortenKey } from "./KeyBadge.js";

describe("shortenKey", () => {
  it("keeps short keys whole and shortens long ones to head…tail", () => {
    expect(shortenKey("k-1")).toBe("k-1");
    expect(shortenKey("0123456789abcdef")).toBe("0123456789abcdef");
    expect(shortenKey("3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f")).toBe("3f2b8c1e…4d5e6f");
  });
});
