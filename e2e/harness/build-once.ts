/** Playwright globalSetup: builds the CLI, the renderer and the Electron bundles once per e2e run. */
import { join } from "node:path";
import { build } from "vite";
// @ts-expect-error: plain ESM build script without type declarations
import { buildApp } from "../../electron/tools/build/build-app.mjs";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../../electron/tools/build/build-cli.mjs";
// @ts-expect-error: plain ESM build script without type declarations
import { buildSavedPage } from "../../electron/tools/build/build-saved-page.mjs";
import { isolateUserDirs } from "../../electron/tools/testing/hermetic-dirs.js";

/** Where the e2e run finds the built CLI, renderer and app. */
export const projectRoot = join(import.meta.dirname, "..", "..");
export const rendererDir = join(projectRoot, "dist", "renderer");
export const cliPath = join(projectRoot, "dist", "cli.js");

/** Points every per-user folder at a private root for the whole run (workers inherit it), then builds. */
export default async function buildOnce(): Promise<() => void> {
  const home = isolateUserDirs();
  await buildCli();
  await build({ configFile: join(projectRoot, "vite.config.ts"), logLevel: "warn" });
  await buildSavedPage();
  await buildApp();
  return home.cleanup;
}
