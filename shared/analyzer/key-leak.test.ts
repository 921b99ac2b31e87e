import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyLeakIndex } from "./key-leak.js";

function found(index: KeyLeakIndex, value: unknown): string[] {
  const out = new Set<string>();
  index.scan(value, out);
  return [...out];
}

describe("KeyLeakIndex", () => {
  it("finds a long key at any offset inside any string value", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 16, maxLength: 60 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (key, before, after) => {
          const index = new KeyLeakIndex();
          index.add(key);
          expect(found(index, { a: [1, { b: `${before}${key}${after}` }] })).toContain(key);
        },
      ),
    );
  });

  it("finds keys of any characters (two-byte, surrogates) among many other keys", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", minLength: 16, maxLength: 40 }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.string({ unit: "binary", maxLength: 30 }),
        fc.nat(),
        (keys, around, pick) => {
          const index = new KeyLeakIndex();
          for (const k of keys) index.add(k);
          const key = keys[pick % keys.length] as string;
          const text = `${around}${key}${around}`;
          const hits = found(index, { t: text });
          expect(hits).toContain(key);
          for (const k of hits) expect(text.includes(k)).toBe(true);
        },
      ),
    );
  });

  it("finds medium keys only as whole values and ignores short keys", () => {
    const index = new KeyLeakIndex();
    index.add("medium-key");
    index.add("short");
    expect(found(index, ["medium-key"])).toEqual(["medium-key"]);
    expect(found(index, ["a medium-key inside"])).toEqual([]);
    expect(found(index, ["short"])).toEqual([]);
    expect(index.size).toBe(1);
  });

  it("finds whole-value keys of every length it knows, also past the lengths it notes one by one", () => {
    const index = new KeyLeakIndex();
    const keys = ["k".repeat(8), "m".repeat(15), "n".repeat(1023), "p".repeat(1024), "q".repeat(3000)];
    for (const k of keys) index.add(k);
    for (const k of keys) expect(found(index, { v: k })).toEqual([k]);
    // Same lengths, other text; and the known texts one character shorter: no leak.
    for (const k of keys) expect(found(index, [k.replace(/./, "x"), k.slice(1)])).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 8, maxLength: 15 }), { maxLength: 20 }),
        fc.string(),
        (ks, s) => {
          const small = new KeyLeakIndex();
          for (const k of ks) small.add(k);
          expect(found(small, [s])).toEqual(ks.includes(s) ? [s] : []);
        },
      ),
    );
  });

  it("tells apart many keys that share a long prefix", () => {
    const index = new KeyLeakIndex();
    const keys = Array.from(
      { length: 5000 },
      (_, i) => `5f0c7b1e-8a44-4c1e-9d0b-${String(i).padStart(12, "0")}`,
    );
    for (const k of keys) index.add(k);
    expect(found(index, { text: `echo ${keys[1234]} done` })).toEqual([keys[1234]]);
    expect(found(index, { text: "5f0c7b1e-8a44-4c1e-9d0b-999999999999" })).toEqual([]);
  });
});

describe("KeyLeakIndex with many keys", () => {
  it("keeps finding every key, and only those, as its window table grows", () => {
    const index = new KeyLeakIndex();
    const keys = Array.from({ length: 20_000 }, (_, i) => `key-${(i * 2654435761) % 1e9}-${i}-tail-of-key`);
    for (const k of keys) index.add(k);
    for (let i = 0; i < keys.length; i += 997) {
      const k = keys[i] as string;
      expect(found(index, [`before ${k} after`, k.slice(1)])).toEqual([k]);
    }
    expect(found(index, { text: "key-123456789-0-tail-of-kex" })).toEqual([]);
  });

  it("files and finds many keys that share a long tail (every window of theirs in one chain), in the order added", () => {
    const index = new KeyLeakIndex();
    const keys = Array.from(
      { length: 5000 },
      (_, i) => `key-${i.toString(16).padStart(8, "0")}-bench-prompt`,
    );
    for (const k of keys) index.add(k);
    expect(found(index, { text: `echo ${keys[4321]} done` })).toEqual([keys[4321]]);
    expect(found(index, [`${keys[7]} and ${keys[3]}`])).toEqual([keys[3], keys[7]]);
    expect(found(index, { text: "key-ffffffff-bench-prompt" })).toEqual([]);
  });

  it("reports keys sharing a window in the order they were added", () => {
    const index = new KeyLeakIndex();
    index.add("aaaaaaaaaaaaaaaaaaaa-1");
    index.add("bbbbbbbbbbbbbbbbbbbb-1");
    index.add("zzzzzzzzzzzzzz-aaaaaaaaaaaaaaaaaaaa-1");
    expect(found(index, ["zzzzzzzzzzzzzz-aaaaaaaaaaaaaaaaaaaa-1 bbbbbbbbbbbbbbbbbbbb-1"])).toEqual([
      "aaaaaaaaaaaaaaaaaaaa-1",
      "zzzzzzzzzzzzzz-aaaaaaaaaaaaaaaaaaaa-1",
      "bbbbbbbbbbbbbbbbbbbb-1",
    ]);
  });
});
