import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "../harness/chromium.js";

// `npm run bench:ui`: the UI benchmark in Debian's Chromium against a real `serve`. Kept out of
// the e2e run (playwright.config.ts) because it takes about a minute and prints figures.
export default defineConfig({
  testDir: ".",
  testMatch: "*.bench.ts",
  outputDir: "../../test-results/bench",
  globalSetup: "../harness/build-once.ts",
  timeout: 240_000,
  workers: 1,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunchOptions,
    viewport: { width: 1400, height: 860 },
  },
});
