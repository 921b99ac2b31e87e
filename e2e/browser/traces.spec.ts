import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { filterShortcut } from "../harness/timeline-filters.js";
import { shownTrace } from "../harness/trace-picker.js";
import { HOSTILE, sessionTrace } from "../harness/traces.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

async function importSession(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "session.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(sessionTrace().jsonl()),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import session.jsonl" })).toContainText(
    "30 records",
  );
  return page.getByRole("treegrid", { name: "Timeline" });
}

test("imports a trace and shows submissions, requests and verdicts; filters narrow it", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  const grid = await importSession(page);
  const rows = grid.getByRole("row");
  // header + initialize, session/new, 5 submissions, malformed, fs/read_text_file
  await expect(rows).toHaveCount(10);
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: session\.jsonl, file, /);
  await expect(rows.filter({ hasText: "key-dup-0003".slice(0, 8) }).first()).toContainText(
    "duplicate-insert",
  );
  await expect(rows.filter({ hasText: "fs/read_text_file" })).toContainText("safe");
  await expect(page.getByRole("list", { name: "Verdict counts" })).toContainText("duplicate-insert: 1");
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText(
    "inserted msg-2 after a failed attempt",
  );
  await page.screenshot({ path: testInfo.outputPath("main-view-imported.png") });

  const filters = page.getByRole("search", { name: "Timeline filters" });
  await filters.getByLabel("Search").fill("second wording");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("key-reuse-0004".slice(0, 8));
  await page.getByRole("button", { name: "Clear filters" }).click();

  await page.getByRole("button", { name: "duplicate-insert: 1" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Clear filters" }).click();

  await (await filterShortcut(page, "Outcome")).selectOption("error");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("retried-after-error");
  await (await filterShortcut(page, "Outcome")).selectOption("");

  await (await filterShortcut(page, "Method")).selectOption("fs/read_text_file");
  await expect(rows).toHaveCount(2);
  await (await filterShortcut(page, "Direction")).selectOption("client->agent");
  await expect(page.getByRole("heading", { name: "No row matches the filters" })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();

  await (await filterShortcut(page, "Key")).fill("dedup");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("deduplicated");
  expect(problems).toEqual([]);
});

test("expands a submission into attempts and frames, explains verdicts and diffs params", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  const grid = await importSession(page);
  const details = page.getByRole("region", { name: "Details" });

  const reuse = grid.getByRole("row").filter({ hasText: "first wording" });
  await reuse.click();
  await expect(details.getByRole("article", { name: "Verdict key-reused-different-prompt" })).toContainText(
    "Clients MUST NOT send the same key with a different prompt.",
  );
  await expect(details.getByRole("alert")).toContainText("Same key, different prompt");
  await expect(details.getByRole("table", { name: "Params that differ between attempts" })).toContainText(
    "second wording",
  );
  await page.screenshot({ path: testInfo.outputPath("details-key-reuse.png") });

  // Keyboard: Right opens the submission, Down goes to its first attempt, Right opens its frames.
  await grid.focus();
  const dedup = grid.getByRole("row").filter({ hasText: "write a haiku" });
  await dedup.click();
  await expect(details.getByRole("article", { name: "Verdict deduplicated" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(dedup).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  await expect(details).toContainText("Attempt 1 of 2");
  await expect(details).toContainText("answer dropped by the inspector: the client never saw it");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(details.getByRole("heading", { name: /^Frame #\d+$/ })).toBeVisible();
  await expect(details).toContainText("dropped by fault injection");
  await expect(grid.getByRole("row", { selected: true })).toHaveCount(1);
  await page.keyboard.press("Home");
  await expect(details).toContainText("initialize");
  await page.keyboard.press("End");
  await expect(details).toContainText("fs/read_text_file");

  // Wire text is only ever text.
  await grid.getByRole("row").filter({ hasText: "key-host" }).click();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  await expect(details.getByRole("figure", { name: "Request" })).toContainText(HOSTILE);
  expect(await page.locator("img").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(problems).toEqual([]);
});

test("imports by drag and drop and exports redacted unless the full trace is asked for", async ({ page }) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const text = sessionTrace().jsonl();
  const dataTransfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], "dropped.jsonl", { type: "application/x-ndjson" }));
    return dt;
  }, text);
  await page.locator(".app").dispatchEvent("dragover", { dataTransfer });
  await page.locator(".app").dispatchEvent("drop", { dataTransfer });
  await expect(page.getByRole("status").filter({ hasText: "Import dropped.jsonl" })).toContainText(
    "30 records",
  );
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: dropped\.jsonl, file, /);

  const redacted = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const r = await redacted;
  expect(r.suggestedFilename()).toBe("dropped-redacted.jsonl");
  const redactedText = readFileSync((await r.path())!, "utf8");
  expect(redactedText).toContain("session/prompt");
  expect(redactedText).not.toContain("write a haiku");

  await page.getByLabel("Full trace").check();
  const full = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const f = await full;
  expect(f.suggestedFilename()).toBe("dropped-full.jsonl");
  expect(readFileSync((await f.path())!, "utf8")).toBe(text);

  // A file that is not a trace is refused with a reason.
  await page.getByLabel("Import trace file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("hello\n"),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import notes.txt failed" })).toContainText(
    "not a trace file",
  );
  expect(problems).toEqual([]);
});

test("wire text with a right-to-left override shows it as a marker, never reversed", async ({ page }) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const RLO = "\u202E";
  const trace = new TraceScript()
    .spawn(4343, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .request(1, "client->agent", 1, "session/new", { cwd: "/w" })
    .result(1, "agent->client", 1, { sessionId: "sess-b" })
    .prompt(1, 2, "sess-b", `pay ${RLO}001$ ot`, "key-bidi-0001")
    .inserted(1, 2, "msg-1")
    .stderr(4343, `saved ${RLO}fdp.exe`);
  await page.getByLabel("Import trace file").setInputFiles({
    name: "bidi.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(trace.jsonl()),
  });
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid).toContainText("pay ⟦U+202E⟧001$ ot");
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("saved ⟦U+202E⟧fdp.exe");
  expect(await grid.textContent()).not.toContain(RLO);
  expect(problems).toEqual([]);
});
