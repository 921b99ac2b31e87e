import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { derivedMessageId } from "./decisions.js";
import { sha1 } from "./sha1.js";
import { isUuid, uuidV5 } from "./uuid.js";

describe("sha1", () => {
  it("matches node:crypto on random inputs of every padding length", () => {
    for (let n = 0; n < 200; n++) {
      const data = randomBytes(n);
      expect(Buffer.from(sha1(data)).toString("hex")).toBe(createHash("sha1").update(data).digest("hex"));
    }
  });
});

describe("uuidV5", () => {
  it("gives the RFC 9562 example value", () => {
    // RFC 9562 appendix A.4: UUIDv5 of "www.example.com" in the DNS namespace.
    expect(uuidV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });

  it("derives distinct, stable message ids per (session, key)", () => {
    const a = derivedMessageId("s1", "k");
    expect(isUuid(a)).toBe(true);
    expect(derivedMessageId("s1", "k")).toBe(a);
    expect(derivedMessageId("s2", "k")).not.toBe(a);
    expect(derivedMessageId("s1", "K")).not.toBe(a);
    expect(derivedMessageId("ab", "c")).not.toBe(derivedMessageId("a", "bc"));
    expect(isUuid(derivedMessageId("s", "🙂".repeat(255)))).toBe(true);
  });
});
