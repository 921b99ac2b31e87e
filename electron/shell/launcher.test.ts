import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeFragmentToken } from "../../shared/hub/hub-auth.js";
// @ts-expect-error: plain ESM build script without type declarations
import { buildApp } from "../tools/build/build-app.mjs";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../tools/build/build-cli.mjs";
import { serveArgs } from "./launcher.js";

// `npm start` where Electron is missing: the real launcher bundle, spawned in a folder without
// node_modules/electron, must say so in one line and serve a working UI instead of failing.
let dist: string;
let child: ChildProcess | undefined;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "acp-ri-launch-"));
  await build({
    configFile: join(import.meta.dirname, "../../vite.config.ts"),
    build: { outDir: join(dist, "renderer"), sourcemap: false },
    logLevel: "silent",
  });
  await buildApp(join(dist, "app"));
  await buildCli(dist);
}, 60_000);
afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dist, { recursive: true, force: true });
});

/** Resolves with the first `count` stdout lines, or rejects after `ms`. */
function firstLines(proc: ChildProcess, count: number, ms: number): Promise<string[]> {
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(lines)}`)), ms);
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      lines.push(line);
      if (lines.length === count) {
        clearTimeout(timer);
        resolve(lines);
      }
    });
    proc.once("exit", (code) => reject(new Error(`exited with ${code}; got ${JSON.stringify(lines)}`)));
  });
}

describe("serveArgs", () => {
  it("passes --demo only when serve's help mentions it, and the built renderer unless told otherwise", () => {
    expect(serveArgs("Usage: serve [--port N]", "/d/renderer", ["--port", "5"])).toEqual([
      "serve",
      "--ui-dir",
      "/d/renderer",
      "--port",
      "5",
    ]);
    expect(serveArgs("  --demo  run the built-in demo", "/r", [])).toEqual([
      "serve",
      "--demo",
      "--ui-dir",
      "/r",
    ]);
    expect(serveArgs("  --demo  x", "/r", ["--no-demo", "--ui-dir", "/x"])).toEqual([
      "serve",
      "--ui-dir",
      "/x",
    ]);
  });
});

describe("launcher without the Electron binary", () => {
  it("says so in one line, then serves the UI with its token and stops cleanly", async () => {
    child = spawn(process.execPath, [join(dist, "app", "launcher.cjs")], {
      cwd: dist,
      env: {
        ...process.env,
        ELECTRON_OVERRIDE_DIST_PATH: "",
        ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dist, "run"),
        XDG_STATE_HOME: join(dist, "state"),
        XDG_DATA_HOME: join(dist, "data"),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [notice, open] = await firstLines(child, 2, 15_000);
    expect(notice).toMatch(
      /^acp-retry-inspector: no Electron app here \(.+\); serving the same UI for a browser instead\.$/,
    );
    const url = /(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(open!)?.[1];
    expect(url).toBeDefined();

    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(await page.text()).toContain("<title>ACP Retry Inspector</title>");
    // The real hub behind it: the page's own API answers with the token (never sent with the page,
    // which is in the link's fragment), and refuses without it.
    const token = takeFragmentToken(new URL(url!).hash).token!;
    const api = new URL("/api/hub", url!);
    expect((await fetch(api, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(api)).status).toBe(401);

    const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
