import { expect, test } from "@playwright/test";
import { createPlaceholderCore } from "../../electron/app/placeholder-core.js";
import { type StandInHub, startStandInHub } from "../../electron/app/stand-in-serve.js";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../shared/trace/record.js";
import { rendererDir } from "../harness/build-once.js";

const ROWS = 5_000;

let hub: StandInHub;
test.beforeEach(async () => {
  hub = await startStandInHub(rendererDir, createPlaceholderCore({ label: "virtual table", tool: "e2e" }));
});
test.afterEach(async () => {
  await hub.close();
});

function bigTrace(): string {
  let out = encodeHeader({
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "e2e",
    startedAt: "2025-01-01T00:00:00Z",
  });
  for (let i = 1; i <= ROWS; i++) {
    const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { n: i } });
    out += encodeRecord({ type: "frame", seq: i, ts: i, conn: 1, dir: "agent->client", raw });
  }
  return out;
}

test("renders only visible rows of a long list and follows the tail only while at the bottom", async ({
  page,
}) => {
  await page.goto(hub.urlWithToken);
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Import trace file").setInputFiles({
    name: "big.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(bigTrace()),
  });
  const grid = page.getByRole("grid", { name: "Trace records" });
  await expect(grid).toHaveAttribute("aria-rowcount", String(ROWS + 1));

  // Virtualised: a screenful of rows plus overscan, not 5,000.
  const rendered = await grid.getByRole("row").count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(100);

  // Following the tail: the newest row is on screen; a new event scrolls into view too.
  // Event seqs: 1 status, 2 note, 3 clear, then the imported frames from 4 on.
  await expect(grid.getByRole("row").filter({ hasText: /^\s*5003#/ })).toBeVisible();
  await page.getByRole("button", { name: "Kill agent" }).click();
  await expect(grid.getByRole("row").filter({ hasText: "fault kill-agent" })).toBeVisible();

  // Scrolled up: new events must not yank the view back to the bottom.
  await page.locator(".vtable").evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(grid.getByRole("row").filter({ hasText: /^\s*4#/ })).toBeVisible();
  await page.getByRole("button", { name: "Restart agent" }).click();
  await expect(grid).toHaveAttribute("aria-rowcount", String(ROWS + 3));
  await expect(grid.getByRole("row").filter({ hasText: "fault restart-agent" })).toHaveCount(0);
  expect(await page.locator(".vtable").evaluate((el) => el.scrollTop)).toBe(0);
});
