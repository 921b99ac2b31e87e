import { describe, expect, it } from "vitest";
import { estimateWidth, fontOf, type Measure, textWidth, widestText, widestWord } from "./text-width.js";

/** A measure of 10 px a character at any font, 12 in a bold one: widths the tests can reckon. */
const tens: Measure = (text, font) => [...text].length * (/^6\d\d/.test(font) ? 12 : 10);

describe("text widths", () => {
  it("measures in the UI font, rounded up, and finds the widest of a set", () => {
    expect(fontOf({ px: 15 })).toMatch(/^400 15px system-ui/);
    expect(fontOf({ px: 13.5, weight: 600 })).toMatch(/^600 13.5px /);
    expect(textWidth("session/resume", { px: 15 }, tens)).toBe(140);
    expect(textWidth("abc", { px: 15, weight: 600 }, tens)).toBe(36);
    expect(widestText(["initialize", "session/prompt", "a"], { px: 15 }, tens)).toBe(140);
    expect(widestText([], { px: 15 }, tens)).toBe(0);
  });

  it("the widest word of a header is what a wrapped header needs", () => {
    expect(widestWord("Verdict / retry class", { px: 15 }, tens)).toBe(70);
    expect(widestWord("Conn", { px: 15 }, tens)).toBe(40);
  });

  it("without a canvas it estimates on the wide side, bold wider", () => {
    const plain = estimateWidth("session/resume", "400 15px system-ui");
    const bold = estimateWidth("session/resume", "600 15px system-ui");
    // the UI font draws "session/resume" 118 px wide at 15 px (Chromium, Debian): the estimate is wider
    expect(plain).toBeGreaterThan(118);
    expect(bold).toBeGreaterThan(plain);
    expect(estimateWidth("ab", "400 30px x")).toBe(2 * estimateWidth("ab", "400 15px x"));
  });
});
