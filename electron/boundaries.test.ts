import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** Source text without comments, so prose like "the agent process." is not mistaken for code. */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const importsElectron =
  /(?:from\s+["']electron(?:\/[^"']*)?["']|require\(\s*["']electron["']\s*\)|import\(\s*["']electron["']\s*\))/;

describe("architecture boundaries", () => {
  it("only the Electron entry files import electron", () => {
    const allowed = new Set(["electron/shell/main.ts", "electron/shell/preload.ts"]);
    const offenders = [
      ...sourceFiles(join(root, "electron")),
      ...sourceFiles(join(root, "shared")),
      ...sourceFiles(join(root, "renderer")),
    ]
      .map((f) => relative(root, f))
      .filter((f) => !allowed.has(f) && !f.endsWith(".test.ts"))
      .filter((f) => importsElectron.test(code(join(root, f))));
    expect(offenders).toEqual([]);
  });

  it("shared/ uses no Node, DOM or Electron globals or imports", () => {
    const banned =
      /(from\s+["'](node:|fs|path|os|child_process|electron|react|ws)["'/])|\b(process\.|Buffer\.|require\(|window\.|document\.)/;
    const offenders = sourceFiles(join(root, "shared"))
      .filter((f) => !f.endsWith(".test.ts"))
      .filter((f) => banned.test(code(f)))
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});
