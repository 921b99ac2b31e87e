import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain .mjs build script, no types
import { buildSchemaValidators } from "./electron/tools/build/build-schema-validators.mjs";

const projectRoot = fileURLToPath(new URL(".", import.meta.url));

// One config for two jobs: `vite build` builds the renderer (root renderer/, out dist/renderer,
// relative base so the same files load from app://inspector/ and from `serve`), and vitest runs
// the unit and integration tests from the project root. Playwright runs e2e/ (not vitest).
export default defineConfig({
  root: fileURLToPath(new URL("./renderer", import.meta.url)),
  base: "./",
  publicDir: fileURLToPath(new URL("./assets", import.meta.url)),
  // The page's schema check imports validators generated from the SDK's schemas (no eval under the CSP).
  plugins: [react(), { name: "acp-schema-validators", buildStart: () => void buildSchemaValidators() }],
  build: {
    outDir: fileURLToPath(new URL("./dist/renderer", import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles, ever: the CSP allows only files from our own origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
  },
  test: {
    root: projectRoot,
    include: [
      "shared/**/*.test.ts",
      "electron/**/*.test.ts",
      "renderer/**/*.test.ts",
      "renderer/**/*.test.tsx",
    ],
    exclude: ["e2e/**", "**/node_modules/**", "dist/**"],
    globalSetup: ["electron/tools/testing/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
