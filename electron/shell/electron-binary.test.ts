import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findElectronBinary } from "./electron-binary.js";

let root: string;
const pkg = () => join(root, "node_modules", "electron");

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "acp-ri-electron-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function installLauncher(pathTxt?: string) {
  mkdirSync(pkg(), { recursive: true });
  writeFileSync(join(pkg(), "package.json"), '{"name":"electron"}');
  if (pathTxt !== undefined) writeFileSync(join(pkg(), "path.txt"), pathTxt);
}

describe("findElectronBinary", () => {
  it("says the package is missing when nothing is installed", () => {
    expect(findElectronBinary({ projectRoot: root })).toEqual({
      available: false,
      reason: "the electron package is not installed",
    });
  });

  it("says the binary was never downloaded when path.txt is missing", () => {
    installLauncher();
    const found = findElectronBinary({ projectRoot: root });
    expect(found.available).toBe(false);
    expect(found).toMatchObject({ reason: expect.stringContaining("path.txt") });
  });

  it("says where it looked when path.txt names a file that is not there", () => {
    installLauncher("electron");
    const found = findElectronBinary({ projectRoot: root });
    expect(found).toMatchObject({ available: false, reason: expect.stringContaining(join(pkg(), "dist")) });
  });

  it("finds the binary path.txt names inside dist/", () => {
    installLauncher("electron\n");
    mkdirSync(join(pkg(), "dist"));
    writeFileSync(join(pkg(), "dist", "electron"), "");
    expect(findElectronBinary({ projectRoot: root })).toEqual({
      available: true,
      path: join(pkg(), "dist", "electron"),
    });
  });

  it("honours ELECTRON_OVERRIDE_DIST_PATH like the launcher does", () => {
    installLauncher();
    const custom = join(root, "custom");
    mkdirSync(custom);
    writeFileSync(join(custom, "electron"), "");
    expect(findElectronBinary({ projectRoot: root, env: { ELECTRON_OVERRIDE_DIST_PATH: custom } })).toEqual({
      available: true,
      path: join(custom, "electron"),
    });
  });
});
