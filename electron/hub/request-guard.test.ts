import { describe, expect, it } from "vitest";
import { newHubToken, tokenMatches } from "./request-guard.js";

describe("hub token", () => {
  it("is 32 random bytes, base64url", () => {
    const t = newHubToken();
    expect(Buffer.from(t, "base64url")).toHaveLength(32);
    expect(newHubToken()).not.toBe(t);
  });

  it("matches only the exact token, whatever the candidate's length", () => {
    const t = newHubToken();
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t, undefined)).toBe(false);
    expect(tokenMatches(t, "")).toBe(false);
    expect(tokenMatches(t, t.slice(0, -1))).toBe(false);
    expect(tokenMatches(t, `${t}x`)).toBe(false);
    expect(tokenMatches(t, t.toUpperCase())).toBe(false);
  });
});
