/**
 * Where a spec saves the screenshots people look at (1280x720 and 1600x1000, light and dark):
 * `ACP_RI_SHOTS_DIR` when set (e.g. a review folder), else the test's own output folder under
 * test-results/, so a run never writes outside the project.
 */
import { join } from "node:path";
import { test } from "@playwright/test";

/** The path for screenshot `name` (a file name such as `u1-real-1280x720-dark.png`). */
export function shotPath(name: string): string {
  const dir = process.env.ACP_RI_SHOTS_DIR;
  return dir ? join(dir, name) : test.info().outputPath(name);
}
