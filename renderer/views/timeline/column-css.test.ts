import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COLUMN_WIDTHS, TIMELINE_CSS_VARS } from "./column-widths.js";

// The Timeline's column widths have one source, column-widths.ts: the table sets each cell's width
// from it, and the CSS takes the Method cell's indent and expander room from custom properties set
// from it. These tests read every CSS file of the renderer, so a width written into CSS fails here.

const RENDERER = join(import.meta.dirname, "..", "..");

/** Every .css file under a folder. */
function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : cssFiles(path);
    return e.name.endsWith(".css") ? [path] : [];
  });
}

/** The rules of a style sheet (comments dropped, at-rules' inner rules included), as selector and declarations. */
function rules(css: string): { selector: string; body: string }[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
    selector: (m[1] ?? "").trim(),
    body: m[2] ?? "",
  }));
}

/** The classes a Timeline cell is laid out by: the Method cell, its indent levels, the Result, Verdict and Waterfall cells. */
const COLUMN_CELL_CLASS = /\.(tl-what|tl-depth-\d+|tl-result|tl-verdicts|wf)(?![\w-])/;
/** A selector naming a column by its id (a class or attribute with the id), e.g. `.col-what`, `[data-column="key"]`. */
const columnIdSelector = (id: string) => new RegExp(`(col(umn)?-${id}(?![\\w-])|--${id}(?![\\w-])|"${id}")`);
/** The properties that set a width, or the indent and room a Method cell's width is reckoned from. */
const WIDTH_PROPERTY = /^(width|min-width|max-width|flex-basis|flex|padding-left|--indent)$/;

/** Whether declarations set a width property to a literal length other than zero. */
function setsWidthLiteral(body: string): boolean {
  return body.split(";").some((decl) => {
    const at = decl.indexOf(":");
    if (at < 0 || !WIDTH_PROPERTY.test(decl.slice(0, at).trim())) return false;
    return [...decl.slice(at + 1).matchAll(/(\d*\.?\d+)(px|em|rem|ch)\b/g)].some((m) => Number(m[1]) !== 0);
  });
}

/** The rules of a style sheet that write a Timeline column's width as a literal. */
function widthLiterals(css: string): string[] {
  return rules(css)
    .filter(
      (r) =>
        (COLUMN_CELL_CLASS.test(r.selector) ||
          Object.keys(COLUMN_WIDTHS).some((id) => columnIdSelector(id).test(r.selector))) &&
        setsWidthLiteral(r.body),
    )
    .map((r) => `${r.selector} { ${r.body.trim().replace(/\s+/g, " ")} }`);
}

describe("the Timeline's column widths: one source", () => {
  const files = cssFiles(RENDERER);

  it("finds the renderer's style sheets, the Timeline's among them", () => {
    expect(files.some((f) => f.endsWith("timeline.css"))).toBe(true);
    expect(files.some((f) => f.endsWith("layout.css"))).toBe(true);
  });

  it("no CSS file writes a Timeline column's width as a literal", () => {
    const found = files.flatMap((f) => widthLiterals(readFileSync(f, "utf8")).map((r) => `${f}: ${r}`));
    expect(found).toEqual([]);
  });

  it("flags what it is meant to flag (the check can fail)", () => {
    expect(widthLiterals(".tl-depth-1 {\n  --indent: 1.2em;\n}")).toHaveLength(1);
    expect(widthLiterals(".tl-what { padding-left: calc(var(--indent) + 1.3em); }")).toHaveLength(1);
    expect(widthLiterals('.vtable__cell[data-column="key"] { width: 100px; }')).toHaveLength(1);
    expect(widthLiterals(".col-waterfall { min-width: 140px }")).toHaveLength(1);
    expect(widthLiterals(".tl-what { padding-left: var(--tl-expander-room); }")).toEqual([]);
    expect(widthLiterals(".wf__tick { width: 2px; }")).toEqual([]);
    expect(widthLiterals(".tl-what { --indent: 0em; }")).toEqual([]);
  });

  it("every Timeline custom property the CSS reads is set from column-widths.ts", () => {
    const used = new Set(
      files.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/var\((--tl-[\w-]+)/g)].map((m) => m[1])),
    );
    expect([...used].sort()).toEqual(Object.keys(TIMELINE_CSS_VARS).sort());
  });
});
