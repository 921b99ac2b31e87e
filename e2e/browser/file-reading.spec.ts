/**
 * How an import reads its file, in Chromium against a real `serve`: a trace of many chunks read in
 * a worker (the window only decodes), and the same file read from its stream in the window when
 * no worker can start or the worker's script cannot load. Each way shows every record of the file
 * and the same rows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { writeBenchTrace } from "../../electron/tools/bench/bench-trace.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
let dir: string;
let file: string;
/** Record lines in the file (every line but the header). */
let records: number;

test.beforeAll(async () => {
  hub = await startServe();
  dir = mkdtempSync(join(tmpdir(), "acp-ri-file-reading-"));
  file = join(dir, "many-chunks.jsonl");
  // about 13 MB: many chunks of the file's stream, lines cut at their edges
  await writeBenchTrace(file, 30_000);
  records =
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length - 1;
});
test.afterAll(async () => {
  await hub.stop();
  rmSync(dir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 90_000 });

/** Imports the file; resolves with the Timeline's row count once every record is in. */
async function importAll(page: Page): Promise<number> {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles(file);
  await expect(page.locator(".trace-size")).toHaveText(`${records} records`, { timeout: 60_000 });
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid.getByRole("row").nth(1)).toBeVisible();
  return Number(await grid.getAttribute("aria-rowcount"));
}

const workerLoaded = (page: Page) =>
  page.evaluate(() =>
    performance.getEntriesByType("resource").some((e) => e.name.includes("file-bytes.worker")),
  );

test("an import reads the file in a worker and shows every record", async ({ page }) => {
  const problems = guardConsole(page);
  const rows = await importAll(page);
  expect(records).toBeGreaterThan(30_000);
  expect(rows).toBeGreaterThan(1_000);
  expect(await workerLoaded(page), "the worker's script was loaded").toBe(true);
  expect(problems).toEqual([]);
});

test("with no worker, or one whose script cannot load, the window reads the file's stream: the same records and rows", async ({
  browser,
}) => {
  const counts: number[] = [];
  for (const [how, init] of [
    ["the worker's script loads", ""],
    [
      "no worker can start",
      "window.Worker = class { constructor() { throw new Error('no workers on this page'); } };",
    ],
    [
      "the worker's script cannot load",
      "{ const W = window.Worker; window.Worker = class extends W { constructor(_url, options) { super('/no-such-worker.js', options); } }; }",
    ],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    if (init) await page.addInitScript(init);
    counts.push(await importAll(page));
    await expect(page.locator('.notice-line[data-tone="error"]'), `${how}: no error notice`).toHaveCount(0);
    if (how === "no worker can start") expect(await workerLoaded(page), how).toBe(false);
    await context.close();
  }
  expect(new Set(counts).size, `rows: ${counts.join(", ")}`).toBe(1);
});
