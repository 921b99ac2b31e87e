import { describe, expect, it } from "vitest";
import { decodedAuthorization, otlpBearerMatches } from "./otlp-authorization.js";

const token = "a".repeat(64);

describe("the OTLP receiver's Authorization check", () => {
  it("takes the token as sent and percent-encoded the way Claude Code sends it", () => {
    expect(otlpBearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(otlpBearerMatches(`Bearer%20${token}`, token)).toBe(true);
    expect(otlpBearerMatches(`bearer%20${token}`, token)).toBe(true);
  });

  it("refuses a wrong, encoded-twice, broken or missing credential", () => {
    expect(otlpBearerMatches(`Bearer%20${"b".repeat(64)}`, token)).toBe(false);
    expect(otlpBearerMatches(`Bearer%2520${token}`, token)).toBe(false);
    expect(otlpBearerMatches(`Bearer%20${token}%E0%A4%A`, token)).toBe(false);
    expect(otlpBearerMatches(`Bearer%20${token.slice(1)}`, token)).toBe(false);
    expect(otlpBearerMatches(undefined, token)).toBe(false);
    expect(otlpBearerMatches("Bearer%20", token)).toBe(false);
  });

  it("decodes only well-formed escapes", () => {
    expect(decodedAuthorization("Bearer%20x")).toBe("Bearer x");
    expect(decodedAuthorization("Bearer%zz")).toBe("Bearer%zz");
    expect(decodedAuthorization("Bearer x")).toBe("Bearer x");
    expect(decodedAuthorization(undefined)).toBeUndefined();
  });
});
