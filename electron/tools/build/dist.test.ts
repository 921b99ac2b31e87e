/**
 * `npm run dist` (electron/tools/build/dist.mjs): without the Electron binary it stops before
 * building, with one line naming what is missing and how to provide it; with one, electron-builder
 * is pointed at it instead of downloading Electron.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findElectronBinary } from "../../shell/electron-binary.js";
// @ts-expect-error: plain ESM build script without type declarations
import { distPlan } from "./dist.mjs";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../../..");
const script = join(import.meta.dirname, "dist.mjs");

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "acp-ri-dist-"));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("npm run dist", () => {
  it("without the Electron binary, stops at once with one line saying what is missing and how to provide it", async () => {
    // An override folder without the binary: missing on every machine, whatever is installed here.
    const empty = join(scratch, "no-electron");
    mkdirSync(empty);
    const failure = await run(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
    }).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failure).not.toBeNull();
    expect(failure!.code).toBe(1);
    expect(failure!.stdout).toBe("");
    const lines = failure!.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the Electron binary is missing at ${join(empty, "electron")}`);
    expect(lines[0]).toContain("ELECTRON_OVERRIDE_DIST_PATH");
    expect(lines[0]).toContain("a machine that can download it");
    expect(lines[0]).not.toMatch(/ENOTFOUND|\n\s+at /);
  });

  it("with the binary, builds and hands electron-builder its folder so nothing is downloaded", () => {
    const dist = join(scratch, "electron-dist");
    mkdirSync(dist);
    writeFileSync(join(dist, "electron"), "");
    const plan = distPlan({
      projectRoot: root,
      env: { ELECTRON_OVERRIDE_DIST_PATH: dist },
      args: ["--dir"],
      platform: "linux",
      find: findElectronBinary,
    });
    expect(plan).toEqual({
      ok: true,
      electronDist: dist,
      builderArgs: ["--config", "electron-builder.yml", `-c.electronDist=${dist}`, "--dir"],
    });
  });

  it("refuses to package another platform from this machine's binary", () => {
    const plan = distPlan({
      projectRoot: root,
      env: {},
      args: ["--win"],
      platform: "linux",
      find: findElectronBinary,
    });
    expect(plan).toMatchObject({
      ok: false,
      message: expect.stringContaining("run it on a Windows machine"),
    });
  });
});
