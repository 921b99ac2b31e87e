import { describe, expect, it } from "vitest";
import { presentFromSearch, withPresentFlag } from "./presenter.js";

describe("presenter flag", () => {
  it("reads ?present from the query", () => {
    expect(presentFromSearch("?present")).toBe(true);
    expect(presentFromSearch("?present=1")).toBe(true);
    expect(presentFromSearch("?x=1&present")).toBe(true);
    expect(presentFromSearch("?present=0")).toBe(false);
    expect(presentFromSearch("")).toBe(false);
    expect(presentFromSearch("?presenter")).toBe(false);
  });

  it("sets and removes the flag without touching the fragment that carries the token", () => {
    const on = withPresentFlag("http://127.0.0.1:4000/#token=abc", true);
    expect(on).toBe("http://127.0.0.1:4000/?present#token=abc");
    expect(withPresentFlag(on, false)).toBe("http://127.0.0.1:4000/#token=abc");
    expect(withPresentFlag("http://127.0.0.1:4000/?a=1#x", true)).toBe(
      "http://127.0.0.1:4000/?a=1&present#x",
    );
    expect(new URL(on).hash).toBe("#token=abc");
    expect(new URL(on).search).toBe("?present");
  });
});
