import { describe, expect, it } from "vitest";
import { outcomeLabel } from "../../kit/outcome-label.js";
import { diffParams, paramsOf } from "./params-diff.js";

describe("diffParams", () => {
  it("is empty for identical retries and flags a different prompt under the same key", () => {
    const a = { sessionId: "s", idempotencyKey: "K", prompt: [{ type: "text", text: "hello" }] };
    expect(diffParams([a, structuredClone(a)])).toEqual([]);
    const b = { ...a, prompt: [{ type: "text", text: "hello!" }] };
    expect(diffParams([a, b])).toEqual([
      { path: "prompt.0.text", values: ['"hello"', '"hello!"'], prompt: true },
    ]);
  });

  it("reports paths missing from some attempts and ignores unreadable frames", () => {
    expect(diffParams([{ a: 1 }, { a: 1, b: [] }])).toEqual([
      { path: "b", values: [undefined, "[]"], prompt: false },
    ]);
    expect(paramsOf("{")).toBeUndefined();
    expect(paramsOf('{"params":{"x":1}}')).toEqual({ x: 1 });
  });
});

describe("outcomeLabel", () => {
  it("labels every outcome with text, not colour alone", () => {
    expect(outcomeLabel({ kind: "inserted", messageId: "m1" }).label).toBe("inserted m1");
    expect(outcomeLabel({ kind: "error", code: -32602, message: "x" })).toMatchObject({
      label: "error -32602",
    });
    expect(outcomeLabel({ kind: "dropped", frame: "response", seq: 3 }).label).toBe("dropped response");
    expect(outcomeLabel({ kind: "lost", reason: "closed", seq: 2 }).tone).toBe("error");
  });
});
