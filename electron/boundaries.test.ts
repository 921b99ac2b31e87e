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

/**
 * What each folder's non-test files may import from the project, besides their own folder (VS Code's
 * layer rule: a folder with no entry fails the test). An entry allows that folder and the folders
 * under it. `docs/architecture.md`'s ownership table says the same in words.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  "shared/json": [],
  "shared/protocol": ["shared/json"],
  "shared/schema": [],
  "shared/keys": ["shared/protocol"],
  "shared/trace": ["shared/protocol", "shared/analyzer", "shared/trace", "shared/json"],
  "shared/trace/interchange": ["shared/protocol", "shared/trace"],
  "shared/trace/testing": ["shared/analyzer", "shared/trace"],
  "shared/analyzer": ["shared/protocol", "shared/trace", "shared/faults"],
  "shared/analyzer/testing": ["shared/analyzer", "shared/trace"],
  "shared/faults": ["shared/protocol", "shared/trace"],
  "shared/filter": ["shared/analyzer"],
  "shared/diff": ["shared/protocol", "shared/trace", "shared/analyzer"],
  "shared/otel": ["shared/protocol", "shared/trace", "shared/analyzer", "shared/keys"],
  "shared/agent-telemetry": ["shared/protocol", "shared/trace", "shared/analyzer"],
  "shared/replay": ["shared/protocol", "shared/trace", "shared/faults", "shared/json"],
  "shared/demo": ["shared/protocol", "shared/analyzer", "shared/faults"],
  "shared/conformance": [
    "shared/conformance",
    "shared/protocol",
    "shared/trace",
    "shared/analyzer",
    "shared/faults",
    "shared/keys",
  ],
  "shared/conformance/client": ["shared/conformance", "shared/protocol", "shared/trace", "shared/analyzer"],
  "shared/conformance/stress": ["shared/protocol", "shared/analyzer", "shared/faults"],
  "shared/hub": [
    "shared/protocol",
    "shared/trace",
    "shared/faults",
    "shared/ops",
    "shared/demo",
    "shared/conformance",
  ],
  "shared/ops": [
    "shared/protocol",
    "shared/trace",
    "shared/faults",
    "shared/hub",
    "shared/demo",
    "shared/conformance",
    "shared/schema",
  ],
  "electron/platform": [],
  "electron/trace": ["shared/", "electron/platform"],
  "electron/schema": ["shared/", "electron/platform", "electron/trace", "electron/schema"],
  "electron/schema/generated": [],
  "electron/hub-client": ["shared/", "electron/platform", "electron/trace"],
  "electron/tap/frames": ["shared/", "electron/trace"],
  "electron/tap/faults": ["shared/", "electron/trace", "electron/tap/frames"],
  "electron/tap/stdio": ["shared/", "electron/trace", "electron/tap/frames", "electron/tap/faults"],
  "electron/tap/remote": [
    "shared/",
    "electron/platform",
    "electron/trace",
    "electron/tap/frames",
    "electron/tap/faults",
    "electron/tap/stdio",
  ],
  "electron/tap/hub-link": ["shared/", "electron/trace", "electron/hub-client"],
  "electron/tap": [
    "shared/",
    "electron/platform",
    "electron/trace",
    "electron/tap",
    "electron/hub-client",
    "electron/otel",
  ],
  "electron/tap/testing": [
    "shared/",
    "electron/trace",
    "electron/tap",
    "electron/peers/client",
    "electron/tools/testing",
  ],
  "electron/otel": ["shared/", "electron/platform", "electron/trace", "electron/hub"],
  "electron/otel/testing": [],
  "electron/agent-telemetry": ["shared/", "electron/platform", "electron/trace"],
  "electron/agent-telemetry/testing": [],
  "electron/peers": ["electron/platform"],
  "electron/peers/rpc": ["shared/"],
  "electron/peers/agent": ["shared/", "electron/platform", "electron/peers/rpc"],
  "electron/peers/client": ["shared/", "electron/trace", "electron/peers/rpc"],
  "electron/peers/testing": ["electron/peers/rpc", "electron/tools/testing"],
  "electron/hub": [
    "shared/",
    "electron/platform",
    "electron/trace",
    "electron/schema",
    "electron/hub-client",
    "electron/hub",
    "electron/conformance",
  ],
  "electron/hub/ports": ["shared/"],
  "electron/replay": ["shared/", "electron/platform", "electron/trace"],
  "electron/demo": [
    "shared/",
    "electron/platform",
    "electron/hub",
    "electron/hub-client",
    "electron/peers",
    "electron/tap",
  ],
  "electron/conformance": [
    "shared/",
    "electron/platform",
    "electron/trace",
    "electron/conformance",
    "electron/hub",
    "electron/peers/rpc",
    "electron/tap",
  ],
  "electron/conformance/cases": ["shared/", "electron/conformance"],
  "electron/conformance/client": ["shared/", "electron/trace", "electron/conformance"],
  "electron/conformance/stress": [
    "shared/",
    "electron/trace",
    "electron/conformance",
    "electron/peers/client",
    "electron/peers/rpc",
  ],
  "electron/conformance/testing": ["electron/conformance", "electron/tools/testing"],
  "electron/truth": ["shared/", "electron/platform", "electron/conformance", "electron/peers/agent"],
  "electron/mcp": [
    "shared/",
    "electron/platform",
    "electron/trace",
    "electron/schema",
    "electron/cli",
    "renderer/model/filter",
  ],
  "electron/lib": ["shared/", "electron/conformance", "electron/peers/client"],
  "electron/cli": ["shared/", "electron/"],
  "electron/cli/commands": ["shared/", "electron/"],
  "electron/cli/report": ["shared/", "electron/platform", "electron/trace"],
  "electron/shell": [
    "shared/",
    "electron/platform",
    "electron/hub",
    "electron/hub-client",
    "electron/demo",
    "electron/conformance",
  ],
  "electron/tools/build": [],
  "electron/tools/testing": [
    "shared/",
    "electron/trace",
    "electron/hub-client",
    "electron/platform",
    "electron/tools/build",
  ],
  "electron/tools/real-agents": ["electron/conformance", "electron/truth"],
  "electron/tools/bench": ["shared/", "electron/"],
};

/**
 * The renderer's layers (issue 33), lowest first: `model/` (bridges, store and slices, the feed, the
 * trace catalog, filters; hooks but no components), `kit/` (components and theme any view may use),
 * `views/<feature>/` (one folder per tab or pane; a feature imports another only where listed here) and
 * `app/` (the shell that puts the views together; `main.tsx` starts it). The longest matching key rules.
 */
const RENDERER_MAY_IMPORT: Record<string, readonly string[]> = {
  "renderer/model": ["shared/", "renderer/model"],
  "renderer/kit": ["shared/", "renderer/model", "renderer/kit"],
  "renderer/views": ["shared/", "renderer/model", "renderer/kit"],
  "renderer/views/details": ["shared/", "renderer/model", "renderer/kit", "renderer/views/timeline"],
  "renderer/views/timeline": ["shared/", "renderer/model", "renderer/kit", "renderer/views/faults"],
  "renderer/app": ["shared/", "renderer/model", "renderer/kit", "renderer/views", "renderer/app"],
  "renderer/main.tsx": ["shared/", "renderer/"],
};

/** The renderer rule for a file, by the longest matching key (undefined: a file outside every layer). */
function rendererRule(file: string): readonly string[] | undefined {
  const key = Object.keys(RENDERER_MAY_IMPORT)
    .filter((k) => file === k || file.startsWith(`${k}/`))
    .sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : RENDERER_MAY_IMPORT[key];
}

/** The folder a renderer file may always import from: its own feature under views/, else its own layer. */
function rendererHome(file: string): string {
  const parts = file.split("/");
  return parts[1] === "views" ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
}

/** True when folder `to` is `entry` or under it (`shared/` and `electron/` name a whole tree). */
function within(to: string, entry: string): boolean {
  return entry.endsWith("/") ? to.startsWith(entry) : to === entry || to.startsWith(`${entry}/`);
}

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

  it("test-only helpers stay test-only: no product file imports a testing/ folder", () => {
    const testing = (f: string) => /(^|\/)testing\//.test(f);
    const offenders = Object.entries(importGraph())
      .filter(([from]) => !testing(from) && !/^electron\/tools\/bench\//.test(from))
      .flatMap(([from, tos]) => tos.filter(testing).map((to) => `${from} -> ${to}`));
    expect(offenders).toEqual([]);
  });

  it("every folder of electron/ and shared/ states what it may import (a folder with no rule fails)", () => {
    const folders = new Set(
      Object.keys(importGraph())
        .filter((f) => /^(electron|shared)\//.test(f))
        .map((f) => dirname(f)),
    );
    expect([...folders].filter((f) => MAY_IMPORT[f] === undefined).sort()).toEqual([]);
  });

  it("each folder imports only what its rule allows", () => {
    const offenders = Object.entries(importGraph())
      .filter(([from]) => /^(electron|shared)\//.test(from))
      .flatMap(([from, tos]) => tos.map((to) => [from, to] as const))
      .filter(([from, to]) => {
        const here = dirname(from);
        const there = dirname(to);
        return there !== here && !(MAY_IMPORT[here] ?? []).some((entry) => within(there, entry));
      })
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offenders).toEqual([]);
  });

  it("docs/architecture.md's ownership table names every project folder each electron/ folder may import", () => {
    const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");
    const rows = doc.split("\n").filter((l) => /^\| `(electron|shared)\/[^`]*` /.test(l));
    expect(rows.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const row of rows) {
      const [, folderCell = "", , imports = ""] = row.split("|");
      const folder = (/`([^`]+)`/.exec(folderCell)?.[1] ?? "").replace(/\/$/, "");
      const rule = MAY_IMPORT[folder];
      if (rule === undefined) {
        if (folder.startsWith("electron/") && !/anything/.test(imports))
          missing.push(`${folder}: a row for a folder with no rule`);
        continue;
      }
      if (/nothing/.test(imports) && rule.length > 0)
        missing.push(`${folder}: says nothing, imports ${rule.join(", ")}`);
      if (!folder.startsWith("electron/") || /the parts above|everything below|anything/.test(imports))
        continue;
      for (const entry of rule) {
        if (entry.startsWith("shared") || within(entry, folder) || entry === "electron/") continue;
        const short = entry.replace(/^electron\//, "");
        if (!imports.includes(`\`${short}\``) && !imports.includes(`\`${short}/\``))
          missing.push(`${folder}: ${short}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every renderer file sits in a layer: model/, kit/, views/<feature>/ or app/", () => {
    const outside = sourceFiles(join(root, "renderer"))
      .map((f) => relative(root, f))
      .filter((f) => !/\.test\.tsx?$/.test(f) && !/\/testing\//.test(f))
      .filter((f) => rendererRule(f) === undefined);
    expect(outside).toEqual([]);
  });

  it("the renderer's layers import only downward (model < kit < views < app), and views only as listed", () => {
    const offenders = Object.entries(importGraph())
      .filter(([from]) => from.startsWith("renderer/") && !/\/testing\//.test(from))
      .flatMap(([from, tos]) => tos.map((to) => [from, to] as const))
      .filter(([from, to]) => {
        const home = rendererHome(from);
        if (to === home || to.startsWith(`${home}/`)) return false;
        return !(rendererRule(from) ?? []).some(
          (entry) => within(dirname(to), entry) || to.startsWith(entry),
        );
      })
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offenders).toEqual([]);
  });

  it("renderer/model/ holds no components: no .tsx file (a .ts file cannot hold JSX)", () => {
    const offenders = sourceFiles(join(root, "renderer/model"))
      .map((f) => relative(root, f))
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .filter((f) => f.endsWith(".tsx"));
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
