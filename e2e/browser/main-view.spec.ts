import { expect, type Page, test } from "@playwright/test";
import { createPlaceholderCore } from "../../electron/app/placeholder-core.js";
import { type StandInHub, startStandInHub } from "../../electron/app/stand-in-serve.js";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceRecord } from "../../shared/trace/record.js";
import { rendererDir } from "../harness/build-once.js";

let hub: StandInHub;
let consoleProblems: string[];
test.beforeEach(async ({ page }) => {
  hub = await startStandInHub(rendererDir, createPlaceholderCore({ label: "stand-in hub", tool: "e2e" }));
  // CSP violations, React warnings and uncaught errors all fail the test that caused them.
  consoleProblems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => consoleProblems.push(`pageerror: ${e.message}`));
});
test.afterEach(async () => {
  await hub.close();
  expect(consoleProblems).toEqual([]);
});

const HOSTILE = "<img src=x onerror=window.__pwned=1>";

function traceFile(): string {
  const frame = (seq: number, dir: "client->agent" | "agent->client", message: object): TraceRecord => ({
    type: "frame",
    seq,
    ts: seq,
    conn: 1,
    dir,
    raw: JSON.stringify(message),
  });
  const records: TraceRecord[] = [
    frame(1, "client->agent", {
      jsonrpc: "2.0",
      id: 1,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: HOSTILE }], idempotencyKey: "k-1" },
    }),
    frame(2, "agent->client", { jsonrpc: "2.0", id: 1, result: { messageId: "m1" } }),
    { type: "agent-stderr", seq: 3, ts: 3, text: "agent: prompt inserted" },
    frame(4, "client->agent", {
      jsonrpc: "2.0",
      id: 2,
      method: "session/cancel",
      params: { sessionId: "s1" },
    }),
  ];
  const header = encodeHeader({
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "e2e",
    startedAt: "2025-01-01T00:00:00Z",
  });
  return header + records.map(encodeRecord).join("");
}

async function openConnected(page: Page) {
  await page.goto(hub.urlWithToken);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
}

test("refuses to work without the token and says where the link comes from", async ({ page }) => {
  await page.goto(hub.url);
  await expect(page.getByRole("heading", { name: "This page needs its access token" })).toBeVisible();
  await expect(page.getByText("acp-retry-inspector serve")).toBeVisible();
  await expect(page.getByRole("button", { name: "Kill agent" })).toHaveCount(0);
});

test("a wrong token is refused by the hub and explained", async ({ page }) => {
  await page.goto(`${hub.url}?token=not-the-token`);
  await expect(page.getByRole("heading", { name: "The inspector refused this link's token" })).toBeVisible();
});

test("renders the layout, explains the empty screens, and removes the token from the address bar", async ({
  page,
}, testInfo) => {
  await openConnected(page);
  expect(page.url()).not.toContain("token");

  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  for (const name of [
    "Drop next response",
    "Drop next request",
    "Delay next response",
    "Reconnect client",
    "Kill agent",
    "Restart agent",
    "Pause",
    "Clear",
    "Export",
    "Import…",
  ]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("grid", { name: "Trace records" })).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Details" }).getByRole("heading", { name: "Nothing selected" }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("Nothing yet");

  // The placeholder core starts with a note; clearing goes through the bridge and empties the list.
  await expect(page.getByRole("grid", { name: "Trace records" }).getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByRole("heading", { name: "No frames yet" })).toBeVisible();
  await expect(page.getByText("drop a trace file")).toBeVisible();

  await page.getByRole("tab", { name: "Sequence" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Swimlanes");
  await page.getByRole("tab", { name: "Timeline" }).click();

  await page.screenshot({ path: testInfo.outputPath("main-view-empty.png") });
});

test("the theme toggle switches between dark and light and is remembered", async ({ page }, testInfo) => {
  await openConnected(page);
  const html = page.locator("html");
  const toggle = page.getByRole("button", { name: "Dark theme" });
  const startDark = (await html.getAttribute("data-theme")) === "dark";
  await expect(toggle).toHaveAttribute("aria-pressed", String(startDark));
  const bgBefore = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await toggle.click();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  await expect(toggle).toHaveAttribute("aria-pressed", String(!startDark));
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(bgBefore);

  await page.getByRole("button", { name: "Large text" }).click();
  await expect(html).toHaveAttribute("data-text", "large");
  await page.screenshot({ path: testInfo.outputPath(`main-view-${startDark ? "light" : "dark"}-large.png`) });

  await page.reload();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
});

test("imports a trace, shows wire text as text only, and navigates rows with the keyboard", async ({
  page,
}, testInfo) => {
  await openConnected(page);
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Import trace file").setInputFiles({
    name: "session.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(traceFile()),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import session.jsonl" })).toContainText(
    "4 records",
  );

  const grid = page.getByRole("grid", { name: "Trace records" });
  await expect(grid.getByRole("row")).toHaveCount(4); // header + 3 frames; stderr goes to its panel
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("agent: prompt inserted");

  await grid.getByRole("row").filter({ hasText: "session/prompt" }).click();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details.getByRole("figure", { name: "Raw frame" })).toContainText(HOSTILE);
  expect(await details.locator("img").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await grid.focus();
  await page.keyboard.press("ArrowDown");
  await expect(details).toContainText('"messageId": "m1"');
  await page.keyboard.press("End");
  await expect(details).toContainText("session/cancel");
  await page.keyboard.press("Home");
  await expect(details).toContainText("session/prompt");
  await expect(grid.getByRole("row", { selected: true })).toHaveCount(1);

  await page.screenshot({ path: testInfo.outputPath("main-view-imported.png") });
});

test("fault and export buttons call the core and report the outcome", async ({ page }) => {
  await openConnected(page);
  await page.getByRole("button", { name: "Kill agent" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kill agent" })).toContainText(
    "no agent is attached",
  );

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  expect((await download).suggestedFilename()).toMatch(/^acp-trace-.*-redacted\.jsonl$/);

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("button", { name: "Resume" })).toHaveAttribute("aria-pressed", "true");
});

test("reconnects after the socket drops and keeps what it had", async ({ page }) => {
  await openConnected(page);
  await page.getByRole("button", { name: "Kill agent" }).click();
  const grid = page.getByRole("grid", { name: "Trace records" });
  await expect(grid.getByRole("row")).toHaveCount(3);
  // Drop every socket server-side; the bridge reconnects and resubscribes from its last seq.
  expect(hub.acceptedSockets()).toBe(1);
  hub.dropSockets();
  await expect.poll(() => hub.acceptedSockets()).toBe(2);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByRole("button", { name: "Restart agent" }).click();
  await expect(grid.getByRole("row")).toHaveCount(4);
});
