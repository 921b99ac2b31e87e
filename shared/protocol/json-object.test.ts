import { describe, expect, it } from "vitest";
import { asJsonObject, isJsonObject, parseJsonObject } from "./json-object.js";

describe("json-object", () => {
  it("tells a plain object from null, arrays and primitives", () => {
    expect(isJsonObject({ a: 1 })).toBe(true);
    expect(isJsonObject({})).toBe(true);
    for (const v of [null, undefined, [], [1], "x", 1, true]) expect(isJsonObject(v)).toBe(false);
    expect(asJsonObject([{ a: 1 }])).toBeNull();
    expect(asJsonObject({ a: 1 })).toEqual({ a: 1 });
  });

  it("parses a line only when it holds an object", () => {
    expect(parseJsonObject('{"id":1}')).toEqual({ id: 1 });
    expect(parseJsonObject("[1,2]")).toBeNull();
    expect(parseJsonObject("null")).toBeNull();
    expect(parseJsonObject('"text"')).toBeNull();
    expect(parseJsonObject("{not json")).toBeNull();
  });
});
