import { describe, expect, it } from "vitest";
import { checkIdempotencyKey, checkPromptParamsKey } from "./idempotency-key.js";

describe("checkIdempotencyKey", () => {
  it.each([
    ["undefined", undefined, "absent"],
    ["null", null, "absent"],
    ["empty string", "", "invalid"],
    ["one char", "k", "valid"],
    ["255 chars", "a".repeat(255), "valid"],
    ["256 chars", "a".repeat(256), "invalid"],
    ["255 astral chars", "😀".repeat(255), "valid"],
    ["256 astral chars", "😀".repeat(256), "invalid"],
    ["number", 42, "invalid"],
    ["object", { k: 1 }, "invalid"],
    ["array", ["k"], "invalid"],
    ["boolean", true, "invalid"],
  ])("%s -> %s", (_name, value, kind) => {
    expect(checkIdempotencyKey(value).kind).toBe(kind);
  });

  it("keeps the key verbatim and case-sensitive", () => {
    expect(checkIdempotencyKey(" Key ")).toEqual({ kind: "valid", key: " Key " });
  });

  it("reads the key from prompt params of any shape", () => {
    expect(checkPromptParamsKey({ sessionId: "s", idempotencyKey: "x" })).toEqual({
      kind: "valid",
      key: "x",
    });
    expect(checkPromptParamsKey({ sessionId: "s" }).kind).toBe("absent");
    expect(checkPromptParamsKey(null).kind).toBe("absent");
    expect(checkPromptParamsKey({ idempotencyKey: "" }).kind).toBe("invalid");
  });
});
