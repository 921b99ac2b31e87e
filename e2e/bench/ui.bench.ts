/**
 * `npm run bench:ui`: the UI in Chromium against a real `serve`.
 * 1. import a 100k-frame trace: time to the first timeline rows (goal ≤ 2 s) and to the last record;
 * 2. a free-text filter on it: time from the keystroke to the updated table (goal ≤ 150 ms);
 * 3. 2,000 frames/s streamed live for 30 s through a tap's hub link: how far behind the UI's
 *    record count ever was (goal: never more than 1 s).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { createHubLink } from "../../electron/tap/hub-link/hub-link.js";
import { writeBenchTrace } from "../../electron/tools/bench/bench-trace.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../shared/trace/record.js";
import { startServe } from "../harness/serve-process.js";
import { produce } from "./live-producer.js";

const IMPORT_FRAMES = 100_000;
const LIVE_RATE = 2_000;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);

const figures: string[] = [];
function report(name: string, value: number, unit: string, goal: number) {
  const line = `${name}: ${value.toFixed(unit === "ms" ? 0 : 2)} ${unit} (goal ≤ ${goal} ${unit}) ${value <= goal ? "MET" : "MISSED"}`;
  figures.push(line);
  console.log(`[bench:ui] ${line}`);
}

/** Sets the search box and resolves with ms until the table's row count changed and a frame painted. */
function timeFilter(page: Page, term: string): Promise<number> {
  return page.evaluate(async (t) => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]');
    const grid = document.querySelector('[aria-label="Timeline"]');
    if (!input || !grid) throw new Error("no search box or timeline");
    const before = grid.getAttribute("aria-rowcount");
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    const t0 = performance.now();
    const changed = new Promise<void>((resolve) => {
      const mo = new MutationObserver(() => {
        if (grid.getAttribute("aria-rowcount") !== before) {
          mo.disconnect();
          resolve();
        }
      });
      mo.observe(grid, { attributes: true });
    });
    setValue?.call(input, t);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await changed;
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  }, term);
}

test("UI bench: 100k-frame import, text filter, 2,000 frames/s live", async ({ page, browser }) => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-ui-"));
  const hub = await startServe();
  try {
    const file = join(dir, "bench-100k.jsonl");
    const frames = await writeBenchTrace(file, IMPORT_FRAMES);
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");

    const grid = page.getByRole("treegrid", { name: "Timeline" });
    const t0 = Date.now();
    await page.getByLabel("Import trace file").setInputFiles(file);
    await expect(grid.getByRole("row").nth(1)).toBeVisible({ timeout: 60_000 });
    const firstRows = Date.now() - t0;
    await expect(page.getByRole("status").filter({ hasText: "Import bench-100k.jsonl" })).toContainText(
      "records",
      {
        timeout: 120_000,
      },
    );
    await expect(page.getByLabel(/^Importing/)).toHaveCount(0, { timeout: 60_000 });
    const allRecords = Date.now() - t0;
    const rows = Number(await grid.getAttribute("aria-rowcount")) - 1;
    report(`import ${frames} frames: first rows`, firstRows, "ms", 2_000);
    figures.push(
      `import ${frames} frames: all records analyzed and shown after ${allRecords} ms (${rows} timeline rows)`,
    );

    const filterTimes: number[] = [];
    for (const term of ["file-42.ts", "msg-1234", "careful answer", "sess-3"]) {
      filterTimes.push(await timeFilter(page, term));
      await page.getByRole("button", { name: "Clear filters" }).click();
    }
    report("text filter, first search (builds the search text)", filterTimes[0]!, "ms", 150);
    report("text filter, slowest later search", Math.max(...filterTimes.slice(1)), "ms", 150);

    // Live: a fresh window follows the newest live tap.
    const live = await browser.newPage();
    await live.goto(hub.url);
    await expect(live.getByRole("status", { name: "Connection" })).toContainText("connected");
    const link = createHubLink({
      header: {
        format: TRACE_FORMAT,
        version: TRACE_FORMAT_VERSION,
        tool: "bench",
        startedAt: new Date().toISOString(),
      },
      hub: { port: hub.port, token: hub.token },
      maxBacklog: 200_000,
    });
    const sentAt: number[] = [];
    let maxLagMs = 0;
    let samples = 0;
    let stop = false;
    const sampler = (async () => {
      while (!stop) {
        const text = (await live.locator(".trace-size").textContent()) ?? "0";
        const shown = Number.parseInt(text, 10) || 0;
        const now = Date.now();
        // Lag: how long ago the first record the UI does not show yet was sent.
        const firstMissing = sentAt[shown + 1];
        if (firstMissing !== undefined) maxLagMs = Math.max(maxLagMs, now - firstMissing);
        samples++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const sent = await produce(link, LIVE_RATE, LIVE_SECONDS, sentAt);
    await expect(live.locator(".trace-size")).toHaveText(`${sent} records`, { timeout: 30_000 });
    stop = true;
    await sampler;
    await link.close(2_000);
    report(
      `live ${LIVE_RATE} frames/s for ${LIVE_SECONDS} s (${sent} records, ${samples} samples): max lag`,
      maxLagMs / 1000,
      "s",
      1,
    );
    await live.screenshot({ path: test.info().outputPath("bench-live.png") });
    await live.close();
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
    console.log(`\n[bench:ui] figures\n${figures.map((f) => `  ${f}`).join("\n")}`);
  }
});
