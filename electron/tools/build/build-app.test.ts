import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_NAMES } from "../../../shared/ops/operations.js";
import { IPC_CHANNELS } from "../../shell/ipc-channels.js";
// @ts-expect-error: plain ESM build script without type declarations
import { buildApp } from "./build-app.mjs";

// The Electron binary is absent in CI, so these checks read the bundles and the entry source:
// what a sandboxed preload may require, and the window's security settings.
let dir: string;
let out: { main: string; preload: string };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-app-"));
  out = await buildApp(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The modules a bundle `require`s. A `require("...")` inside a string literal is code text, not a
 * call: ajv keeps `'require("ajv/dist/runtime/equal").default'` for its standalone code generator,
 * which we never use, so a match right after a quote is left out.
 */
const requires = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/(['`]?)require\("([^"]+)"\)/g)]
    .filter((m) => m[1] === "")
    .map((m) => m[2]);

describe("Electron bundles", () => {
  it("the sandboxed preload is CommonJS and requires nothing but electron", () => {
    expect(new Set(requires(out.preload))).toEqual(new Set(["electron"]));
    expect(readFileSync(out.preload, "utf8")).not.toMatch(/^\s*import\s/m);
  });

  it("the preload exposes named functions, never ipcRenderer itself", () => {
    const src = readFileSync(join(import.meta.dirname, "../../shell/preload.ts"), "utf8");
    expect(src).toMatch(/exposeInMainWorld\("acpInspector", api\)/);
    expect(src).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });

  it("the built preload exposes exactly the operation table's functions and subscribe, each over the invoke channel", async () => {
    // The bundle runs as Electron would load it, with a stand-in for Electron's two objects that records what it is given.
    const exposed: Record<string, Record<string, (...a: unknown[]) => unknown>> = {};
    const invoked: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: never) => (exposed[name] = api) },
      ipcRenderer: {
        invoke: async (...a: unknown[]) => {
          invoked.push(a);
          return { ok: true, value: { echoed: a[2] } };
        },
        on: () => {},
        removeListener: () => {},
      },
    };
    const module = { exports: {} };
    runInNewContext(readFileSync(out.preload, "utf8"), {
      module,
      exports: module.exports,
      require: (id: string) => (id === "electron" ? electron : undefined),
    });
    const api = exposed.acpInspector!;
    expect(Object.keys(exposed)).toEqual(["acpInspector"]);
    expect(Object.keys(api).sort()).toEqual([...OPERATION_NAMES, "subscribe"].sort());
    for (const op of OPERATION_NAMES) {
      invoked.length = 0;
      expect(await api[op]!({ probe: op })).toEqual({ echoed: { probe: op } });
      expect(invoked).toEqual([[IPC_CHANNELS.invoke, op, { probe: op }]]);
    }
  });

  it("the main bundle keeps electron external and everything else inside", () => {
    // The in-process hub bundles ws, which tries its optional native addons inside try/catch.
    const optional = new Set(["bufferutil", "utf-8-validate"]);
    const external = requires(out.main).filter(
      (m) => !m!.startsWith("node:") && !builtinModules.includes(m!) && !optional.has(m!),
    );
    expect([...new Set(external)]).toEqual(["electron"]);
  });

  it("the window is isolated, sandboxed, without Node, and denies new windows and navigation", () => {
    const src = readFileSync(join(import.meta.dirname, "../../shell/main.ts"), "utf8");
    for (const setting of [
      "contextIsolation: true",
      "sandbox: true",
      "nodeIntegration: false",
      "webSecurity: true",
      "webviewTag: false",
    ]) {
      expect(src).toContain(setting);
    }
    // New windows and navigation are refused by the policy main hooks into every web contents.
    expect(src).toMatch(/guardContents\(/);
    const policy = readFileSync(join(import.meta.dirname, "../../shell/navigation-policy.ts"), "utf8");
    expect(policy).toMatch(/setWindowOpenHandler[\s\S]*action: "deny"/);
    expect(policy).toMatch(/"will-navigate"[\s\S]*preventDefault/);
    // Every IPC handler is registered through the sender-checked registrar (sender-check.ts).
    expect(src).toMatch(/checkedRegistrar\(\s*\(channel, listener\) => ipcMain\.handle\(channel, listener\)/);
    expect(src.match(/ipcMain\.handle\(/g)).toHaveLength(1);
    const check = readFileSync(join(import.meta.dirname, "../../shell/sender-check.ts"), "utf8");
    expect(check).toMatch(/if \(!isTrustedSender\(sender, trusted\(\)\)\) throw/);
  });
});
