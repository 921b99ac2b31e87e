import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { HEADER_HEIGHT } from "./lanes.js";
import { DARK_PALETTE, PAINT_VARS, paletteFrom } from "./palette.js";
import { escapeXml, sequenceSvg, svgExportRange } from "./sequence-export.js";
import { layoutSequence } from "./sequence-layout.js";

const HOSTILE = `</text><script>alert("x")</script>&amp;'`;

/**
 * A strict-enough XML well-formedness check for our output (no DOMParser in Node): tags nest and
 * close, attribute values are quoted without raw `<` or `&`, and text has no raw `<` or bare `&`.
 */
function wellFormedErrors(xml: string): string[] {
  const errors: string[] = [];
  const stack: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const token =
    /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(token)) {
    const [, close, name, , selfClose, text, stray] = m;
    if (stray) errors.push(`stray < at ${m.index}`);
    else if (text !== undefined) {
      if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);)/.test(text)) errors.push(`bare & in ${text}`);
      if (stack.length === 0 && text.trim()) errors.push(`text outside the root: ${text}`);
    } else if (close) {
      if (stack.pop() !== name) errors.push(`mismatched </${name}>`);
    } else if (!selfClose) stack.push(name as string);
  }
  if (stack.length > 0) errors.push(`unclosed ${stack.join(", ")}`);
  return errors;
}

function trace(): TraceScript {
  return new TraceScript()
    .open(1)
    .request(1, "client->agent", 1, HOSTILE, {})
    .prompt(1, 2, "s1", "hi", "k-12345678", { dropped: true })
    .prompt(1, 3, "s1", "hi", "k-12345678")
    .wait(4000)
    .inserted(1, 3, "m<1>")
    .close(1, HOSTILE);
}

describe("sequenceSvg", () => {
  it("is a well-formed standalone SVG with every wire string escaped", () => {
    const layout = layoutSequence(trace().records);
    const { svg, width, height } = sequenceSvg(layout, { width: 1000, from: 0, to: layout.rows.length - 1 });
    expect(wellFormedErrors(svg)).toEqual([]);
    expect(
      svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'),
    ).toBe(true);
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;/text&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&apos;");
    expect(svg).toContain("messageId m&lt;1&gt;");
    expect(width).toBe(1000);
    expect(height).toBe(HEADER_HEIGHT + layout.height);
    // colours are inline, not CSS classes or variables, so the file renders outside the app
    expect(svg).not.toMatch(/class=|var\(--/);
    expect(svg).toContain(`fill="${DARK_PALETTE.bg}"`);
    for (const lane of [">Client<", ">Inspector<", ">Agent<", "… 4.0 s idle …"]) expect(svg).toContain(lane);
  });

  it("the well-formedness check itself rejects broken XML", () => {
    expect(wellFormedErrors("<svg><text>a<b</text></svg>")).not.toEqual([]);
    expect(wellFormedErrors("<svg><g></svg>")).not.toEqual([]);
    expect(wellFormedErrors('<svg><text x="1">a & b</text></svg>')).not.toEqual([]);
    expect(wellFormedErrors('<svg><g a="x<y"/></svg>')).not.toEqual([]);
    expect(wellFormedErrors('<svg><text x="1">a &amp; b</text></svg>')).toEqual([]);
  });

  it("draws only the rows asked for, shifted under the lane titles", () => {
    const layout = layoutSequence(trace().records);
    const { svg, height } = sequenceSvg(layout, { width: 800, from: 2, to: 3 });
    const rows = layout.rows.slice(2, 4);
    expect(height).toBe(HEADER_HEIGHT + rows.reduce((h, r) => h + r.height, 0));
    expect(svg.match(/<g aria-label=/g)).toHaveLength(2);
    expect(svg).toContain('aria-label="request session/prompt  id 2');
    expect(svg).not.toContain("connection #1 opened");
  });

  it("marks the selected arrow", () => {
    const layout = layoutSequence(trace().records);
    const all = { width: 800, from: 0, to: layout.rows.length - 1 };
    expect(sequenceSvg(layout, all).svg).not.toContain(DARK_PALETTE.selected);
    expect(sequenceSvg(layout, { ...all, selectedSeq: 4 }).svg).toContain(`fill="${DARK_PALETTE.selected}"`);
  });

  it("replaces characters XML cannot carry", () => {
    expect(escapeXml("a\u0000b\u001bc\ud800d\t")).toBe("a\ufffdb\ufffdc\ufffdd\t");
    expect(escapeXml("😀")).toBe("😀");
  });
});

describe("svgExportRange", () => {
  it("exports everything that fits, else a capped window from the screen's top", () => {
    expect(svgExportRange(10, 5, 100)).toEqual({ from: 0, to: 9 });
    expect(svgExportRange(1000, 200, 100)).toEqual({ from: 200, to: 299 });
    expect(svgExportRange(1000, 950, 100)).toEqual({ from: 900, to: 999 });
  });
});

describe("palette", () => {
  it("reads every paint from the theme variable sequence.css uses", () => {
    const css = readFileSync(join(import.meta.dirname, "sequence.css"), "utf8");
    for (const [paint, name] of Object.entries(PAINT_VARS)) {
      expect(css).toMatch(new RegExp(`\\.seq-s-${paint}\\s*\\{\\s*stroke:\\s*var\\(${name}\\)`));
      expect(css).toMatch(new RegExp(`\\.seq-f-${paint}\\s*\\{\\s*fill:\\s*var\\(${name}\\)`));
    }
    const light = paletteFrom((n) => (n === "--bg" ? " #ffffff " : ""));
    expect(light.bg).toBe("#ffffff");
    expect(light.fg).toBe(DARK_PALETTE.fg);
  });
});
