import { describe, expect, it } from "vitest";
import { derivedMessageId } from "./peer-choices.js";
import { sha1 } from "./sha1.js";
import { isUuid, uuidV5 } from "./uuid.js";

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

describe("sha1", () => {
  it("gives the FIPS 180 test vectors", () => {
    expect(hex(sha1(ascii("")))).toBe("da39a3ee5e6b4b0d3255bfef95601890afd80709");
    expect(hex(sha1(ascii("abc")))).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
    expect(hex(sha1(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
    );
    expect(hex(sha1(ascii("a".repeat(1_000_000))))).toBe("34aa973cd4c4daa4f61eeb2bdbad27316534016f");
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
