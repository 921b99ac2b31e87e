/**
 * Issue 12 in the browser: an imported trace with an invalid record and repeated seqs shows a banner
 * naming the seqs and the flagged entries in the Records tab; a large live frame arrives as a preview
 * the Details pane loads whole; a window refused at the hub's cap of UI sockets says so.
 */
import { expect, type Page, test } from "@playwright/test";
import { WebSocket } from "ws";
import { createHubLink, type HubLink } from "../../electron/tap/hub-link/hub-link.js";
import { UI_PATH } from "../../shared/hub/protocol-version.js";
import type { TraceRecord } from "../../shared/trace/record.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { sessionTrace } from "../harness/traces.js";

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1600, height: 1000 },
];

let hub: ServeProcess;
let link: HubLink | undefined;
test.beforeEach(async () => {
  hub = await startServe();
});
test.afterEach(async () => {
  await link?.close(2_000);
  link = undefined;
  await hub.stop();
});

async function shots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: test.info().outputPath(`${name}-${size.width}x${size.height}.png`) });
  }
}

test("an import with an invalid record and repeated seqs: a banner names the seqs, Records shows them flagged", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const lines = sessionTrace().jsonl().trimEnd().split("\n");
  const bad = { ...JSON.parse(lines[3] as string), raw: 42 };
  lines[3] = JSON.stringify(bad);
  lines.splice(8, 0, lines[7] as string, lines[5] as string); // seq 7 again, then seq 5
  await page.getByLabel("Import trace file").setInputFiles({
    name: "damaged.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(`${lines.join("\n")}\n`),
  });
  const banner = page.getByRole("alert").filter({ hasText: "repeated or decreasing seq" });
  await expect(banner).toHaveText(
    "2 records have a repeated or decreasing seq and were left out of the analysis: seq 7, 5.",
  );
  await expect(page.getByRole("alert").filter({ hasText: "not a valid record" })).toContainText(
    "1 entry is not a valid record and is kept flagged",
  );
  await page.getByRole("tab", { name: "Records" }).click();
  const grid = page.getByRole("grid", { name: "Trace records" });
  // the list follows its tail; Home goes to the top, where the flagged entries are
  await grid.getByRole("row").nth(2).click();
  await page.keyboard.press("Home");
  const first = grid.locator("#vrow-bad0");
  await expect(first).toContainText("raw must be a string, got number");
  await expect(grid.locator("#vrow-bad1")).toContainText(
    "seq repeats the seq before it: left out of the analysis",
  );
  await expect(grid.locator("#vrow-bad2")).toContainText("seq goes back (after seq 7)");
  await first.click();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Not a valid record (seq 3)");
  await shots(page, "import-flagged");
  expect(problems).toEqual([]);
});

test("a large live frame arrives as a preview of its size; Load full frame fetches it from the hub", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const script = sessionTrace();
  link = createHubLink({ header: script.header(), hub: { port: hub.port, token: hub.token } });
  const raw = JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: {
      sessionId: "sess-1",
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `${"A".repeat(600_000)}THE-END` },
      },
    },
  });
  const big: TraceRecord = { type: "frame", seq: 1, ts: Date.now(), conn: 1, dir: "agent->client", raw };
  link.send(big);
  await page.getByRole("tab", { name: "Records" }).click();
  const grid = page.getByRole("grid", { name: "Trace records" });
  await grid.getByRole("row").nth(1).click();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText(`Preview of 586 KiB (${raw.length} bytes): long strings are cut.`);
  await expect(details).not.toContainText("THE-END");
  await shots(page, "large-frame-preview");
  await details.getByRole("button", { name: "Load full frame" }).click();
  await expect(details).toContainText("The full frame, 586 KiB, from the hub's trace file.");
  await expect(details).toContainText("THE-END");
  expect(problems).toEqual([]);
});

test("a window refused at the hub's cap of UI sockets says so", async ({ page }) => {
  // fill the hub's 32 UI sockets from here, then open the page
  const sockets: WebSocket[] = [];
  for (let i = 0; i < 32; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}${UI_PATH}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    sockets.push(ws);
  }
  try {
    await page.goto(hub.url);
    await expect(page.getByRole("alert").filter({ hasText: "The hub refused this window" })).toBeVisible({
      timeout: 10_000,
    });
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("refused: hub full");
    await shots(page, "ui-cap-refused");
    sockets.pop()?.close();
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected", {
      timeout: 15_000,
    });
  } finally {
    for (const ws of sockets) ws.terminate();
  }
});
