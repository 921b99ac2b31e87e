import { defineConfig } from "vitest/config";

export default defineConfig({
  root: ".",
  test: {
    include: [
      "shared/**/*.test.ts",
      "electron/**/*.test.ts",
      "renderer/**/*.test.ts",
      "renderer/**/*.test.tsx",
    ],
    globalSetup: ["electron/testing/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
