import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
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

  it("each folder does its own job: the tap, the CLI's hub client and shared/ never reach into the hub server", () => {
    const offenders = Object.entries(importGraph())
      .flatMap(([from, tos]) => tos.map((to) => [from, to] as const))
      .filter(
        ([from, to]) =>
          /^electron\/(tap|hub-client)\/|^shared\/|^renderer\//.test(from) && to.startsWith("electron/hub/"),
      )
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offenders).toEqual([]);
  });

  it("the tap, the demo and the conformance suite never import the CLI: what they share with it lives below it", () => {
    const offenders = Object.entries(importGraph())
      .flatMap(([from, tos]) => tos.map((to) => [from, to] as const))
      .filter(
        ([from, to]) => /^electron\/(tap|demo|conformance)\//.test(from) && to.startsWith("electron/cli/"),
      )
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offenders).toEqual([]);
  });

  it("no import circles among the project's own files", () => {
    const graph = importGraph();
    const state = new Map<string, "open" | "done">();
    const circles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const to of graph[file] ?? []) visit(to, [...path, file]);
      state.set(file, "done");
    };
    for (const file of Object.keys(graph)) visit(file, []);
    expect(circles).toEqual([]);
  });
});

/** Every non-test source file and the project files it imports (type-only imports included), by path from the root. */
function importGraph(): Record<string, string[]> {
  const files = ["electron", "shared", "renderer"].flatMap((d) => sourceFiles(join(root, d)));
  const known = new Set(files.map((f) => relative(root, f)));
  const graph: Record<string, string[]> = {};
  for (const file of files) {
    const from = relative(root, file);
    if (/\.test\.tsx?$/.test(from)) continue;
    const specs = [...code(file).matchAll(/(?:import|export)[^"';]*?from\s+["'](\.[^"']+)["']/g)].map(
      (m) => m[1] as string,
    );
    graph[from] = specs
      .map((spec) => normalize(join(dirname(from), spec)))
      .map((t) =>
        [t.replace(/\.js$/, ".ts"), t.replace(/\.js$/, ".tsx"), t, `${t}/index.ts`].find((c) => known.has(c)),
      )
      .filter((t): t is string => t !== undefined && !/\.test\.tsx?$/.test(t));
  }
  return graph;
}
