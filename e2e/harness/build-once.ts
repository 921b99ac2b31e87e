/** Playwright globalSetup: builds the renderer and the Electron bundles once per e2e run. */
import { join } from "node:path";
import { build } from "vite";
// @ts-expect-error: plain ESM build script without type declarations
import { buildApp } from "../../electron/build/build-app.mjs";

/** Where the e2e run finds the built renderer and app. */
export const projectRoot = join(import.meta.dirname, "..", "..");
export const rendererDir = join(projectRoot, "dist", "renderer");

export default async function buildOnce(): Promise<void> {
  await build({ configFile: join(projectRoot, "vite.config.ts"), logLevel: "warn" });
  await buildApp();
}
