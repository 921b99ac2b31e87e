import { describe, expect, it } from "vitest";
import { copyJson, walkJson } from "./json-walk.js";
import { writeJson } from "./json-writer.js";

/** `[[[...0...]]]`, `n` arrays deep, built without recursion. */
function nested(n: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

describe("walkJson", () => {
  it("visits every value depth first in key order, with its depth, parent and key", () => {
    const value = { a: [1, { b: "x" }], c: null };
    const seen: string[] = [];
    const past = walkJson(value, { maxDepth: 10 }, (at) => {
      seen.push(`${String(at.key)}@${at.depth}`);
      return true;
    });
    expect(past).toBe(false);
    expect(seen).toEqual(["@0", "a@1", "0@2", "1@2", "b@3", "c@1"]);
  });

  it("does not enter an array or object past maxDepth, flags it, and keeps walking its siblings", () => {
    const pastSeen: unknown[] = [];
    const leaves: unknown[] = [];
    const past = walkJson({ deep: [[["hidden"]]], after: "seen" }, { maxDepth: 2 }, (at, isPast) => {
      if (isPast) pastSeen.push(at.value);
      else if (typeof at.value === "string") leaves.push(at.value);
      return true;
    });
    expect(past).toBe(true);
    expect(pastSeen).toEqual([["hidden"]]);
    expect(leaves).toEqual(["seen"]);
  });

  it("walks 100,000 levels without touching the call stack, and stops after maxNodes", () => {
    expect(walkJson(nested(100_000), { maxDepth: 200_000 }, () => true)).toBe(false);
    expect(walkJson(nested(100_000), { maxDepth: 511 }, () => true)).toBe(true);
    let visits = 0;
    const past = walkJson([1, 2, 3, 4, 5], { maxDepth: 5, maxNodes: 3 }, () => {
      visits++;
      return true;
    });
    expect({ past, visits }).toEqual({ past: true, visits: 3 });
  });

  it("enters a shared array or object once (a cycle ends)", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    let visits = 0;
    const count = () => {
      visits++;
      return true;
    };
    expect(walkJson(loop, { maxDepth: 10 }, count)).toBe(false);
    expect(visits).toBe(1);
  });
});

describe("copyJson", () => {
  it("maps leaves and keys, replaces what is past the depth bound, leaves the original alone", () => {
    const value = { keep: "a", list: ["b", 2], deep: { x: { y: "z" } } };
    const copy = copyJson(
      value,
      { maxDepth: 1 },
      {
        leaf: (v) => (typeof v === "string" ? v.toUpperCase() : v),
        key: (k) => `k_${k}`,
        past: () => "[deep]",
      },
    );
    expect(copy).toEqual({
      value: { k_keep: "A", k_list: ["B", 2], k_deep: { k_x: "[deep]" } },
      pastBound: true,
    });
    expect(value.keep).toBe("a");
  });

  it("keeps whatever lies after maxNodes as it was", () => {
    const copy = copyJson(["a", "b", "c"], { maxDepth: 5, maxNodes: 2 }, { leaf: (v) => `${String(v)}!` });
    expect(copy).toEqual({ value: ["a!", "b", "c"], pastBound: true });
  });
});

describe("writeJson", () => {
  it("writes JSON.stringify's text with the keys it is given, at a depth JSON.stringify cannot reach", () => {
    const parts: string[] = [];
    const value = { b: [1, "two", null, undefined], a: { c: true } };
    writeJson(
      value,
      (p) => parts.push(p),
      (o) => Object.keys(o).filter((k) => o[k] !== undefined),
    );
    expect(parts.join("")).toBe(JSON.stringify(value));
    const deep: string[] = [];
    writeJson(nested(50_000), (p) => deep.push(p), Object.keys);
    expect(deep.join("")).toBe(`${"[".repeat(50_000)}0${"]".repeat(50_000)}`);
  });
});
