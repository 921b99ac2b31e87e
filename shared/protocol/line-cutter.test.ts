import { describe, expect, it } from "vitest";
import { LineCutter } from "./line-cutter.js";

describe("LineCutter", () => {
  it("joins a line split over pieces and keeps the unfinished tail for end()", () => {
    const c = new LineCutter();
    expect(c.push('{"a":')).toEqual([]);
    expect(c.push('1}\n{"b":2}\n{"c"')).toEqual(['{"a":1}', '{"b":2}']);
    expect(c.push(":3}")).toEqual([]);
    expect(c.end()).toBe('{"c":3}');
    expect(c.end()).toBe("");
  });

  it("gives empty lines as they are, and a lone newline ends the carried line", () => {
    const c = new LineCutter();
    expect(c.push("x")).toEqual([]);
    expect(c.push("\n\n")).toEqual(["x", ""]);
  });

  it("bounds the part line it carries between pieces", () => {
    const c = new LineCutter(4);
    expect(c.push("abcdef")).toEqual([]);
    expect(c.push("gh\nxyz")).toEqual(["abcdgh"]);
    expect(c.end()).toBe("xyz");
  });
});
