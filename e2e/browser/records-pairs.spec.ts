/**
 * Issue 33 items 4 and 5 on the Records tab, in Chromium against a real `serve`: each request is
 * paired with its answer (the Pair column names the other record, the method is on both, the
 * latency on the answer), the whole record number shows on a trace past a million records, and a
 * streamed answer's 40 `agent_message_chunk` updates are one row with its count, size and "ended"
 * (an imported trace is never still arriving). Screenshots at 1280x720 and 1600x1000, light and dark.
 */
import { expect, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shotPath } from "../harness/shots.js";

/** Added to every seq, so the record numbers have seven digits. */
const FAR = 1_002_000;

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000, []);
});
test.afterAll(async () => {
  await hub?.stop();
});

/** A prompt answered after 40 streamed chunks, after an initialize answered in 25 ms; seqs past a million. */
function streamedTrace(): string {
  const t = new TraceScript(1_700_000_000_000).open(1);
  t.request(1, "client->agent", 0, "initialize", { protocolVersion: 2 }).wait(25);
  t.result(1, "agent->client", 0, { protocolVersion: 2 });
  t.prompt(1, 1, "sess-1", "tell me a story", "key-stream-0001");
  for (let i = 0; i < 40; i++) {
    t.notify(1, "agent->client", "session/update", {
      sessionId: "sess-1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `word${i} ` } },
    });
  }
  t.inserted(1, 1, "msg-1");
  return t
    .jsonl()
    .split("\n")
    .map((line) => line.replace(/"seq":(\d+)/g, (_, n) => `"seq":${Number(n) + FAR}`))
    .join("\n");
}

test("Records pairs requests with answers, shows whole record numbers and folds a run of chunks", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "streamed.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(streamedTrace()),
  });
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("tell me a story");
  await page.getByRole("tab", { name: "Records" }).click();
  const grid = page.getByRole("grid", { name: "Trace records" });

  // the 40 chunks are one row, with their count, size and "ended"
  const run = grid.getByRole("row").filter({ hasText: "agent_message_chunk × 40" });
  await expect(run).toHaveCount(1);
  await expect(run).toContainText(/\d+(\.\d)? kB, ended/);
  await expect(run).toContainText("session/update");
  await expect(grid.getByRole("row").filter({ hasText: '"agent_message_chunk"' })).toHaveCount(0);

  // initialize and its answer name each other, the method on both, the latency on the answer
  const request = grid
    .getByRole("row")
    .filter({ hasText: /→ #\d+/ })
    .first();
  const answer = grid
    .getByRole("row")
    .filter({ hasText: /← #\d+/ })
    .first();
  await expect(request).toContainText("initialize");
  await expect(answer).toContainText("initialize");
  await expect(answer.getByRole("gridcell").nth(6)).toHaveText(/^2\d ms$/);
  const requestSeq = Number((await request.getByRole("gridcell").first().textContent())?.trim());
  const answerSeq = Number((await answer.getByRole("gridcell").first().textContent())?.trim());
  expect(requestSeq).toBeGreaterThan(FAR);
  await expect(request).toContainText(`→ #${answerSeq}`);
  await expect(answer).toContainText(`← #${requestSeq}`);
  // the pair cells are whole, not cut
  for (const row of [request, answer]) {
    const cell = row.getByRole("gridcell").nth(5);
    expect(await cell.evaluate((td) => td.scrollWidth > td.clientWidth + 1)).toBe(false);
  }

  for (const theme of ["light", "dark"] as const) {
    const toggle = page.getByRole("button", { name: /theme/i }).first();
    if ((await page.locator("html").getAttribute("data-theme")) !== theme) await toggle.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    for (const [width, height] of [
      [1280, 720],
      [1600, 1000],
    ] as const) {
      await page.setViewportSize({ width, height });
      // the record number is whole in its cell (not "1002…")
      const cut = await grid
        .getByRole("row")
        .filter({ hasText: "initialize" })
        .first()
        .getByRole("gridcell")
        .first()
        .evaluate((td) => td.scrollWidth > td.clientWidth + 1);
      expect(cut, `${width}x${height}: the record number is whole`).toBe(false);
      await page.screenshot({ path: shotPath(`u2-records-${width}x${height}-${theme}.png`) });
    }
  }
  expect(problems).toEqual([]);
});
