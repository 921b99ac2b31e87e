import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, promptPreview } from "./prompt-content.js";

/** The same value with every object's keys in reverse order. */
function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>)
      .reverse()
      .map(([k, x]) => [k, reversedKeys(x)]),
  );
}

describe("canonicalJson", () => {
  it("is JSON of the same value, with keys sorted at every depth", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(canonicalJson(reversedKeys(v))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it("writes what JSON.stringify writes for sorted input, and prints undefined as a word", () => {
    expect(canonicalJson({ b: [1, "x", { d: null, c: true }], a: "é\n" })).toBe(
      '{"a":"é\\n","b":[1,"x",{"c":true,"d":null}]}',
    );
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson(undefined)).toBe("undefined");
  });

  it("writes a prompt nested 100,000 deep without using the call stack (issue 31)", () => {
    const depth = 100_000;
    const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    const objects = `${'{"b":1,"a":'.repeat(depth)}null${"}".repeat(depth)}`;
    expect(canonicalJson(JSON.parse(objects))).toBe(`${'{"a":'.repeat(depth)}null${',"b":1}'.repeat(depth)}`);
  });
});

describe("promptPreview", () => {
  it("joins text blocks, names other blocks, collapses whitespace and shortens", () => {
    expect(promptPreview([{ type: "text", text: "fix\n the\ttest" }, { type: "image" }, null])).toBe(
      "fix the test [image] [?]",
    );
    expect(promptPreview("not an array")).toBe("");
    const long = promptPreview([{ type: "text", text: "word ".repeat(100) }]);
    expect(long).toHaveLength(120);
    expect(long.endsWith("…")).toBe(true);
  });
});
