import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Everything that came over the wire is untrusted text: the renderer never parses strings as HTML.
const root = import.meta.dirname;
const banned =
  /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\s*=|insertAdjacentHTML|document\.write\(|createContextualFragment|\beval\(|new Function\(/;

function sources(): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name));
}

describe("renderer safety", () => {
  it("never injects HTML or evaluates strings", () => {
    const offenders = sources()
      .filter((f) => banned.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it("the check itself catches the patterns it bans", () => {
    expect(banned.test("<div dangerouslySetInnerHTML={{ __html: x }} />")).toBe(true);
    expect(banned.test("el.innerHTML = frame")).toBe(true);
    expect(banned.test("el.textContent = frame")).toBe(false);
  });
});
