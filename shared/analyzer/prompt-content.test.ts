import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANONICAL_DIGEST_MAX_CHARS } from "../protocol/canonical-json.js";
import { canonicalDigest, canonicalJson, promptPreview } from "./prompt-content.js";

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

/** promptPreview as it was before it stopped early (issue 31): the whole text joined, collapsed, then cut. */
function previewWhole(prompt: unknown): string {
  if (!Array.isArray(prompt)) return "";
  let out = "";
  for (const block of prompt) {
    if (out.length >= 120) break;
    const b = block as { type?: unknown; text?: unknown } | null;
    const piece =
      b && typeof b.text === "string" ? b.text : `[${b && typeof b.type === "string" ? b.type : "?"}]`;
    out = out.length === 0 ? piece : `${out} ${piece}`;
  }
  out = out.replace(/\s+/g, " ");
  return out.length > 120 ? `${out.slice(0, 119)}…` : out;
}

describe("promptPreview on long text", () => {
  it("is what collapsing the whole text gives, whitespace runs across its steps included", () => {
    const spaceOrWord = fc.oneof(
      fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2028", "\u3000", "\ufeff"),
      fc.string({ maxLength: 30 }),
      fc.nat(2000).map((n) => " ".repeat(n)),
    );
    const text = fc.array(spaceOrWord, { maxLength: 60 }).map((p) => p.join(""));
    const block = fc.oneof(
      text.map((t) => ({ type: "text", text: t })),
      fc.constant({ type: "image" }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 5 }), (prompt) => {
        expect(promptPreview(prompt)).toBe(previewWhole(prompt));
      }),
      { seed: 31, numRuns: 500 },
    );
    for (const n of [119, 120, 121, 480, 481, 960]) {
      const prompt = [{ type: "text", text: `${"x".repeat(n)}${" ".repeat(5000)}y` }];
      expect(promptPreview(prompt)).toBe(previewWhole(prompt));
    }
  });
});

describe("canonicalJson of long strings", () => {
  it("escapes a long string a slice at a time exactly as JSON.stringify, never splitting a surrogate pair", () => {
    const slice = 64 * 1024;
    for (const at of [slice - 2, slice - 1, slice, 2 * slice - 1]) {
      const pair = `${"a".repeat(at)}\ud83d\ude00\n"\\${"b".repeat(slice)}`;
      expect(canonicalJson([{ text: pair }])).toBe(JSON.stringify([{ text: pair }]));
      const lone = `${"a".repeat(at)}\ud83d${"b".repeat(slice)}\ude00`;
      expect(canonicalJson({ text: lone })).toBe(JSON.stringify({ text: lone }));
    }
  });
});

describe("canonicalDigest", () => {
  it("is the canonical JSON itself up to CANONICAL_DIGEST_MAX_CHARS", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalDigest(v)).toBe(canonicalJson(v));
      }),
      { seed: 31 },
    );
    expect(canonicalDigest(undefined)).toBe("undefined");
    const edge = "x".repeat(CANONICAL_DIGEST_MAX_CHARS - 2);
    expect(canonicalDigest(edge)).toBe(JSON.stringify(edge));
  });

  it("hashes a longer form as it is written: SHA-256 of its code units and its length, keys in any order", () => {
    const text = `${"é ".repeat(100_000)}\ud83d\ude00`;
    const prompt = [{ type: "text", text, _meta: { b: 1, a: [true, null] } }];
    const whole = canonicalJson(prompt);
    const want = createHash("sha256").update(Buffer.from(whole, "utf16le").swap16()).digest("hex");
    expect(canonicalDigest(prompt)).toBe(`#sha256:${want}:${whole.length}`);
    expect(canonicalDigest([{ _meta: { a: [true, null], b: 1 }, text, type: "text" }])).toBe(
      canonicalDigest(prompt),
    );
    // One code unit apart at the very end: another digest.
    expect(
      canonicalDigest([
        { type: "text", text: `${text.slice(0, -1)}\ude01`, _meta: { b: 1, a: [true, null] } },
      ]),
    ).not.toBe(canonicalDigest(prompt));
    expect(canonicalDigest(text)).toBe(
      `#sha256:${createHash("sha256")
        .update(Buffer.from(JSON.stringify(text), "utf16le").swap16())
        .digest("hex")}:${JSON.stringify(text).length}`,
    );
  });
});
