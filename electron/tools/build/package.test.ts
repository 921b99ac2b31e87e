/**
 * Issue 34 item 1, the package as a new user gets it: a copy of the project is packed with
 * `npm pack` (its `prepack` builds the CLI, the renderer, the app and the declarations there, so
 * nothing races another run's dist/), the tarball is installed into an empty folder, and the
 * installed package answers `--help`, type-checks a `keys` import with tsc, and serves the demo's
 * page. The install takes what it can from npm's cache (`--prefer-offline`).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../../..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let scratch: string;
let tarball: string;
let entries: string[];
let installed: string;
let installLog: string;
const timings: Record<string, number> = {};

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[name] = Date.now() - started;
  }
}

/** Files of the project: what git lists (tracked and untracked, minus ignored), or without git every file outside the generated folders. */
async function projectFiles(): Promise<string[]> {
  try {
    const { stdout } = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root });
    return stdout.split("\0").filter(Boolean);
  } catch {
    const skip = new Set([
      ".git",
      "node_modules",
      "dist",
      "release",
      ".test-build",
      "test-results",
      ".bench",
    ]);
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
        const path = dir === "" ? d.name : join(dir, d.name);
        if (d.isDirectory()) return skip.has(path) ? [] : walk(path);
        return d.isFile() ? [path] : [];
      });
    return walk("");
  }
}

/** The project copied into `into`, with node_modules linked. */
async function copyProject(into: string): Promise<void> {
  for (const file of await projectFiles()) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(into, file));
    } catch (err) {
      // A file git lists but another run just deleted is not part of the package.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  symlinkSync(join(root, "node_modules"), join(into, "node_modules"), "dir");
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acp-ri-pack-"));
  const project = join(scratch, "project");
  await timed("copy", () => copyProject(project));
  const { stdout } = await timed("pack (prepack build)", () =>
    run(npm, ["pack", "--pack-destination", scratch, "--loglevel", "error"], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
  tarball = join(scratch, stdout.trim().split("\n").at(-1)!);
  entries = (await run("tar", ["tzf", tarball], { maxBuffer: 16 * 1024 * 1024 })).stdout
    .split("\n")
    .filter(Boolean)
    .map((e) => e.replace(/^package\//, ""));

  installed = join(scratch, "consumer");
  mkdirSync(installed);
  writeFileSync(
    join(installed, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  const install = await timed("install", () =>
    run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], {
      cwd: installed,
      maxBuffer: 16 * 1024 * 1024,
    }),
  );
  installLog = install.stdout + install.stderr;
}, 240_000);

afterAll(() => {
  console.log(
    `package test: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
      .join(", ")}`,
  );
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const bin = () => join(installed, "node_modules", ".bin", "acp-retry-inspector");

describe("the npm package", () => {
  it("holds the CLI, the prebuilt UI, the library and keys entries with declarations, README, LICENSE and docs, and no source maps", () => {
    for (const file of [
      "dist/cli.js",
      "dist/otlp-worker.js",
      "dist/mcp.js",
      "dist/lib.js",
      "dist/lib.d.ts",
      "dist/keys.js",
      "dist/keys.d.ts",
      "dist/types/shared/keys/index.d.ts",
      "dist/renderer/index.html",
      "README.md",
      "LICENSE",
      "docs/hub.md",
      "package.json",
    ])
      expect(entries, file).toContain(file);
    expect(entries.filter((e) => e.endsWith(".map"))).toEqual([]);
    // Sources stay out: only bundles and declarations.
    expect(entries.filter((e) => /\.tsx?$/.test(e) && !e.endsWith(".d.ts"))).toEqual([]);
    const license = readFileSync(join(installed, "node_modules/acp-retry-inspector/LICENSE"), "utf8");
    expect(license).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });

  it("installs only what the CLI and library import at run time, without engine warnings", () => {
    const modules = readdirSync(join(installed, "node_modules"));
    for (const devOnly of [
      "react",
      "react-dom",
      "lucide-react",
      "zustand",
      "electron",
      "vite",
      "@modelcontextprotocol",
    ])
      expect(modules, devOnly).not.toContain(devOnly);
    expect(modules).toContain("ws");
    expect(installLog).not.toMatch(/EBADENGINE/);
  });

  it("runs the installed CLI's --help", async () => {
    const { stdout } = await run(bin(), ["--help"]);
    expect(stdout).toMatch(/acp-retry-inspector/);
    expect(stdout).toMatch(/\bserve\b/);
    expect(stdout).toMatch(/\bproxy\b/);
  });

  it("runs the installed MCP server, its SDK bundled in (the SDK is not installed)", async () => {
    const child = spawn(bin(), ["mcp"], { stdio: ["pipe", "pipe", "pipe"] });
    try {
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      child.stdin!.write(`${JSON.stringify(initialize)}\n`);
      const answer = JSON.parse(await firstLine(child)) as {
        id: number;
        result?: { serverInfo?: { name: string } };
      };
      expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: "acp-retry-inspector" } } });
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.stdin!.end();
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    }
  });

  it("type-checks an import from acp-retry-inspector/keys with tsc (and the types are not `any`)", async () => {
    writeFileSync(
      join(installed, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ["check.ts"],
      }),
    );
    writeFileSync(
      join(installed, "check.ts"),
      [
        'import { AgentKeyLedger } from "acp-retry-inspector/keys";',
        "// @ts-expect-error: a class is not a number (fails as unused if the import were untyped)",
        "export const notANumber: number = AgentKeyLedger;",
        "",
      ].join("\n"),
    );
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", join(installed, "tsconfig.json")]).then(
      (r) => ({ code: 0, out: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
    );
    expect(result).toEqual({ code: 0, out: "" });
  });

  it("serves the demo's page from the installed package", async () => {
    const child = spawn(bin(), ["serve", "--demo"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const link = new URL(await firstLine(child));
      const token = new URLSearchParams(link.hash.slice(1)).get("token")!;
      const page = await get(new URL("/", link));
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/^text\/html/);
      const script = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(page.body)?.[1];
      expect(script, page.body).toBeDefined();
      const asset = await get(new URL(script!, link));
      expect(asset.status).toBe(200);
      expect(asset.type).toMatch(/javascript/);
      // The page's first call: the demo's state, with the token from the link. The demo's tap and
      // agent (the installed package's own) come up after the link is printed: asked until ready.
      const auth = { authorization: `Bearer ${token}` };
      const demoState = async () => {
        const answer = await get(new URL("/api/demo", link), auth);
        return answer.status === 200
          ? (JSON.parse(answer.body) as { state: string; error?: string })
          : answer;
      };
      let demo = await demoState();
      const waiting = () => ("state" in demo ? demo.state === "starting" : demo.status === 404);
      while (waiting() && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 200));
        demo = await demoState();
      }
      expect(demo).toMatchObject({ state: "ready" });
    } finally {
      // serve stops its demo's tap and agent on SIGTERM; waited for, so the folder can go.
      const exited = new Promise((r) => child.once("exit", r));
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    }
  }, 60_000);
});

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (c) => (stderr += c));
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
}

function get(url: URL, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }),
      );
    })
      .on("error", reject)
      .end();
  });
}
