import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../build/build-cli.mjs";
import { isolateUserDirs } from "./hermetic-dirs.js";

/**
 * Points every per-user folder at a private root for the whole run (`hermetic-dirs.ts`), then
 * builds the CLI once into a private folder (so parallel runs never race) and provides its path.
 */
export default async function setup(project: TestProject) {
  const home = isolateUserDirs();
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-cli-"));
  const cli: string = await buildCli(dir);
  project.provide("cliPath", cli);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    cliPath: string;
  }
}
