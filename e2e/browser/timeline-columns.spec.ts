/**
 * The Timeline's event rows and columns in Chromium against a real `serve`: after the demo's kill
 * scenario the agent's exit and the reconnect read as rows in trace order between the attempts;
 * columns resize (keyboard), hide (column menu) and sort, and all of it, with the lifecycle toggle,
 * survives a reload; a cut cell has its full text as a tooltip and in the Details pane.
 */
import { execFileSync } from "node:child_process";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { lostAnswerRetryTrace } from "../harness/traces.js";

const SHOTS = process.env.TIMELINE_SHOTS_DIR;

function proxyListens(): boolean {
  return execFileSync(process.execPath, [cliPath, "proxy", "--help"], { encoding: "utf8" }).includes(
    "--listen",
  );
}

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000, ["--demo", "--demo-turn-ms", "200", "--demo-timeout-ms", "5000"]);
});
test.afterAll(async () => {
  await hub?.stop();
});

test.describe.configure({ timeout: 90_000 });

async function importTrace(page: Page): Promise<Locator> {
  await page.getByLabel("Import trace file").setInputFiles({
    name: "columns.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(lostAnswerRetryTrace().jsonl()),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import columns.jsonl" })).toContainText("records");
  return page.getByRole("treegrid", { name: "Timeline" });
}

async function openHub(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
}

/** The rows' texts, top to bottom (the grid is short enough to be all on screen). */
async function rowTexts(grid: Locator): Promise<string[]> {
  return grid.locator("tbody tr").allInnerTexts();
}

test("after the kill scenario, the agent's exit sits between the attempt and what follows", async ({
  page,
}, testInfo) => {
  test.skip(!proxyListens(), "this build's proxy has no --listen, which the demo runs on");
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openHub(page);
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("Demo ready", {
    timeout: 60_000,
  });
  await page.getByLabel("Speed").selectOption({ label: "No pause" });
  await page.getByRole("button", { name: "Play Agent crash, restart, resume, retry" }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  await expect(caption.getByRole("status")).toContainText("Finished: all", { timeout: 40_000 });

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  // Off at first; turned on, it is remembered (the second test reloads with it).
  await expect(page.getByLabel("Lifecycle events")).not.toBeChecked();
  await page.getByLabel("Lifecycle events").check();
  await expect(
    grid
      .getByRole("row")
      .filter({ hasText: /agent \d+ killed by SIGKILL/ })
      .first(),
  ).toBeVisible();
  const submission = grid.getByRole("row").filter({ hasText: "session/prompt" }).first();
  await submission.click();
  await page.keyboard.press("ArrowRight");
  const texts = await rowTexts(grid);
  const at = (re: RegExp) => texts.findIndex((t) => re.test(t));
  const first = at(/attempt 1/);
  const killed = at(/killed by SIGKILL/);
  const second = at(/attempt 2/);
  expect(first).toBeGreaterThan(-1);
  expect(killed).toBeGreaterThan(first);
  // The retry went to a new connection and a new agent after the kill: the exit row comes before it.
  expect(second).toBeGreaterThan(killed);
  expect(at(/connection #\d+ opened/)).toBeGreaterThan(-1);
  // Each attempt names the connection and the agent pid it went to; the killed agent's pid is the first's.
  const pidOfKilled = /agent (\d+) killed/.exec(texts[killed] ?? "")?.[1];
  expect(texts[first]).toContain(pidOfKilled ?? "no pid");
  expect(texts[second]).not.toContain(pidOfKilled ?? "no pid");
  // Conn is folded away by default (the group shows "connection #1 closed", "#2 opened" between the
  // attempts); ticked in the column menu, each attempt names its connection.
  await page.getByRole("button", { name: /^Columns/ }).click();
  await page.getByRole("group", { name: "Columns of the Timeline" }).getByLabel("Conn").check();
  await page.keyboard.press("Escape");
  await expect(grid.getByRole("row").filter({ hasText: "attempt 1" })).toContainText("#");

  if (SHOTS) {
    // The demo panel folded away, so the shots show the Timeline's rows.
    await page.getByText("Built-in demo", { exact: true }).click();
    for (const theme of ["dark", "light"] as const) {
      const toggle = page.getByRole("button", { name: /theme/i }).first();
      if ((await page.locator("html").getAttribute("data-theme")) !== theme) await toggle.click();
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      for (const [w, h] of [
        [1280, 720],
        [1600, 1000],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.screenshot({ path: `${SHOTS}/kill-scenario-${w}x${h}-${theme}.png` });
      }
    }
    // With Key, Ids and Conn hidden (Key and Ids are by default now), the latency waterfall is on screen too.
    await page.getByRole("button", { name: /^Columns/ }).click();
    const menu = page.getByRole("group", { name: "Columns of the Timeline" });
    await menu.getByLabel("Key").uncheck();
    await menu.getByLabel("Ids").uncheck();
    await menu.getByLabel("Conn").uncheck();
    await page.keyboard.press("Escape");
    for (const [w, h] of [
      [1280, 720],
      [1600, 1000],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SHOTS}/kill-scenario-waterfall-${w}x${h}-light.png` });
    }
  }
  await page.screenshot({ path: testInfo.outputPath("timeline-kill-scenario.png") });
  expect(problems).toEqual([]);
});

test("columns resize, hide and sort, and the setup and the lifecycle toggle survive a reload", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await openHub(page);
  let grid = await importTrace(page);
  await page.getByLabel("Lifecycle events").check();
  const header = (name: string) => grid.getByRole("columnheader", { name, exact: true });

  // Event rows in trace order among the requests.
  let texts = await rowTexts(grid);
  expect(texts.findIndex((t) => t.includes("agent started, pid 4242"))).toBe(0);
  expect(texts.findIndex((t) => t.includes("connection #1 closed: client timed out"))).toBeGreaterThan(
    texts.findIndex((t) => t.includes("session/prompt")),
  );

  // Resize by keyboard: focus the Result column's handle and press Left.
  const handle = grid.getByRole("separator", { name: "Resize Result column" });
  await expect(handle).toHaveAttribute("aria-valuenow", "425");
  await handle.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(handle).toHaveAttribute("aria-valuenow", "455");

  // Hide the Key column from the column menu.
  await page.getByRole("button", { name: /^Columns/ }).click();
  await page.getByRole("group", { name: "Columns of the Timeline" }).getByLabel("Key").uncheck();
  await expect(header("Key")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Sort by latency, longest first: session/new (300 ms), session/list (90 ms), the prompt (60 ms), initialize (5 ms).
  await header("Latency").getByRole("button").click();
  await expect(header("Latency")).toHaveAttribute("aria-sort", "ascending");
  await header("Latency").getByRole("button").click();
  await expect(header("Latency")).toHaveAttribute("aria-sort", "descending");
  texts = await rowTexts(grid);
  expect(texts.map((t) => /session\/new|session\/list|session\/prompt|initialize/.exec(t)?.[0])).toEqual([
    "session/new",
    "session/list",
    "session/prompt",
    "initialize",
  ]);
  // Lifecycle events are left out while sorted by something else than time, and it says so.
  await expect(page.getByText("lifecycle events show in time order only")).toBeVisible();

  // Turn lifecycle events off, then reload: everything is as it was left.
  await page.getByLabel("Lifecycle events").uncheck();
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  grid = await importTrace(page);
  await expect(page.getByLabel("Lifecycle events")).not.toBeChecked();
  await expect(header("Key")).toHaveCount(0);
  await expect(header("Latency")).toHaveAttribute("aria-sort", "descending");
  await expect(grid.getByRole("separator", { name: "Resize Result column" })).toHaveAttribute(
    "aria-valuenow",
    "455",
  );
  texts = await rowTexts(grid);
  expect(texts[0]).toContain("session/new");
  expect(texts.some((t) => t.includes("agent started"))).toBe(false);

  // Back to trace order (a third click), lifecycle rows on again.
  await header("Latency").getByRole("button").click();
  await expect(header("Latency")).toHaveAttribute("aria-sort", "none");
  await page.getByLabel("Lifecycle events").check();
  texts = await rowTexts(grid);
  expect(texts[0]).toContain("agent started, pid 4242");
  expect(problems).toEqual([]);
});

test("a cut cell has its full text as a tooltip, and the Details pane shows it whole", async ({ page }) => {
  const problems = guardConsole(page);
  await openHub(page);
  const grid = await importTrace(page);
  // Key is folded into the submission's group line by default; ticked in the column menu it is a column
  await page.getByRole("button", { name: /^Columns/ }).click();
  await page.getByRole("group", { name: "Columns of the Timeline" }).getByLabel("Key").check();
  await page.keyboard.press("Escape");
  // narrowed to its least width (its header's widest word: "Key" stays whole), the key is cut
  const key = grid.getByRole("separator", { name: "Resize Key column" });
  await key.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowLeft");
  const least = await key.getAttribute("aria-valuemin");
  await expect(key).toHaveAttribute("aria-valuenow", least ?? "");
  expect(Number(least)).toBeGreaterThan(30);
  const row = grid.getByRole("row").filter({ hasText: "session/prompt" });
  const cell = row.locator("td").nth(await columnIndex(grid, "Key"));
  await cell.hover();
  await expect(cell).toHaveAttribute("title", "key-dedup-0001");
  expect(await cell.evaluate((td) => td.scrollWidth > td.clientWidth)).toBe(true);

  await row.click();
  const fields = page
    .getByRole("region", { name: "Details" })
    .getByRole("list", { name: "All columns of this row" });
  await expect(fields).toContainText("Conn: #1 #2");
  await expect(fields).toContainText("Ids: 2, 1");
  await expect(fields).toContainText("Agent pid: 4242");

  // Records: clock times to the millisecond.
  await page.getByRole("tab", { name: "Records" }).click();
  const records = page.getByRole("grid", { name: "Trace records" });
  await expect(records.getByRole("row").nth(1)).toContainText(/\d\d:\d\d:\d\d\.\d{3}/);
  expect(problems).toEqual([]);
});

async function columnIndex(grid: Locator, name: string): Promise<number> {
  const names = await grid.getByRole("columnheader").allInnerTexts();
  const i = names.findIndex((n) => n.replace(/[▲▼]/g, "").trim() === name);
  if (i < 0) throw new Error(`no column ${name} in ${names.join(" | ")}`);
  return i;
}
