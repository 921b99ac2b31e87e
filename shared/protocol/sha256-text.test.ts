import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextSha256 } from "./sha256-text.js";

/** Node's SHA-256 of the text's UTF-16 code units, big-endian: what TextSha256 promises. */
function reference(text: string): string {
  return createHash("sha256").update(Buffer.from(text, "utf16le").swap16()).digest("hex");
}

describe("TextSha256", () => {
  it("is SHA-256 of the code units, known answers included", () => {
    expect(new TextSha256().hex()).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    for (const text of [
      "",
      "a",
      "ab",
      "abc",
      "é",
      "\ud83d\ude00",
      "\ud800",
      "x".repeat(31),
      "x".repeat(32),
      "x".repeat(33),
    ]) {
      const h = new TextSha256();
      h.update(text);
      expect(h.hex()).toBe(reference(text));
    }
  });

  it("gives the same digest however the text is cut into pieces, at every block boundary", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.array(fc.nat(300), { maxLength: 6 }),
        (text, cuts) => {
          const h = new TextSha256();
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            h.update(text.slice(at, Math.max(at, cut)));
            at = Math.max(at, cut);
          }
          h.update(text.slice(at));
          expect(h.hex()).toBe(reference(text));
        },
      ),
      { seed: 31, numRuns: 300 },
    );
  });
});
