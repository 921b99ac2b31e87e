/**
 * The Latency tab and the waterfall's cut idle gap in Chromium against a real `serve`: an imported
 * trace with a dropped answer, its keyed retry, two session/list calls and an hour of idle between
 * them. The tab lists p50/p95/p99/max per method and says the dropped answer is the agent's time;
 * the Timeline's waterfall draws the idle hour as one break named with its duration.
 */
import { expect, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000);
});
test.afterAll(async () => {
  await hub?.stop();
});

function latencyTrace(): TraceScript {
  return new TraceScript(1_700_000_000_000, 0)
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .wait(5)
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .request(1, "client->agent", 1, "session/new", { cwd: "/w" })
    .wait(300)
    .result(1, "agent->client", 1, { sessionId: "sess-1" })
    .prompt(1, 2, "sess-1", "write a haiku", "key-lat-0001")
    .wait(40)
    .inserted(1, 2, "msg-1", { dropped: true })
    .prompt(1, 3, "sess-1", "write a haiku", "key-lat-0001")
    .wait(20)
    .inserted(1, 3, "msg-1")
    .request(1, "client->agent", 4, "session/list", {})
    .wait(90)
    .result(1, "agent->client", 4, { sessions: [] })
    .wait(3_600_000)
    .request(1, "client->agent", 5, "session/list", {})
    .wait(30)
    .result(1, "agent->client", 5, { sessions: [] });
}

test("the Latency tab lists p50/p95/p99/max per method; the waterfall cuts the idle hour", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "latency.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(latencyTrace().jsonl()),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import latency.jsonl" })).toContainText("records");

  // The Timeline's waterfall: one break for the idle hour, named with its real duration.
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid.locator('th[aria-label="Waterfall"]')).toContainText("1 cut");
  const brk = grid.locator(".wf__break").first();
  await expect(brk).toHaveAttribute("title", /^idle 1 h 0 min, not drawn to scale$/);
  await grid.locator('th[aria-label="Waterfall"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("timeline-gap-1600x1000.png") });

  await page.getByRole("tab", { name: "Latency" }).click();
  const table = page.getByRole("table", { name: "Latency per method" });
  const prompt = table.getByRole("row").filter({ hasText: "session/prompt" });
  await expect(prompt).toContainText("2 of 2");
  await expect(prompt).toContainText("40 ms");
  await expect(prompt).toContainText("1 answer dropped (agent's time)");
  const list = table.getByRole("row").filter({ hasText: "session/list" });
  await expect(list.getByRole("cell")).toHaveText([
    "session/list",
    "2 of 2",
    "30 ms",
    "90 ms",
    "90 ms",
    "90 ms",
    "",
    "",
  ]);
  await expect(page.getByText("A dropped answer counts as the agent's time")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("latency-1600x1000.png") });
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(table).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("latency-1280x720.png") });
  expect(problems).toEqual([]);
});
