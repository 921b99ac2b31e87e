/**
 * Issue 34 item 2 for a trace imported into the page (no hub holds it): the page runs the schema
 * check itself with the validators generated at build time (its CSP allows no eval), so the imported
 * prompt whose answer lacks the v2 messageId gets the "⚠ schema" badge and Details explains it, as a
 * live trace's does; a key of 256 code points breaks the RFD's 255 limit; initialize rows stay clean.
 * Screenshots at 1280x720 and 1600x1000, light and dark (copied to $SCHEMA_SHOTS_DIR when set).
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
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

/** 256 astral code points (512 UTF-16 units): one past the RFD's 255. */
const LONG_KEY = "😀".repeat(256);

/** A v2 session: a prompt answered v1-style (no messageId), then one with a key of 256 code points. */
function brokenTrace(): string {
  return new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", {
      protocolVersion: 2,
      capabilities: {},
      info: { name: "c", version: "1" },
    })
    .result(1, "agent->client", 0, {
      protocolVersion: 2,
      capabilities: { session: {} },
      info: { name: "a", version: "1" },
    })
    .prompt(1, 1, "s1", "an imported answer without messageId", "key-import-1")
    .result(1, "agent->client", 1, { stopReason: "end_turn" })
    .prompt(1, 2, "s1", "a key one code point too long", LONG_KEY)
    .inserted(1, 2, "msg-2")
    .jsonl();
}

async function shots(page: Page, scheme: string): Promise<void> {
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1600, height: 1000 },
  ]) {
    await page.setViewportSize(size);
    const name = `schema-import-${scheme}-${size.width}x${size.height}.png`;
    const path = test.info().outputPath(name);
    await page.screenshot({ path });
    const dir = process.env.SCHEMA_SHOTS_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(path, join(dir, name));
    }
  }
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`${colorScheme}: an imported trace's schema-breaking frames get the badge and Details`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    const problems = guardConsole(page);
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    await page.getByLabel("Import trace file").setInputFiles({
      name: "broken.jsonl",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(brokenTrace()),
    });
    const grid = page.getByRole("treegrid", { name: "Timeline" });
    const bad = grid.getByRole("row").filter({ hasText: "an imported answer without messageId" }).first();
    await expect(bad.locator(".schema-badge")).toHaveText("⚠ schema", { timeout: 10_000 });
    const long = grid.getByRole("row").filter({ hasText: "a key one code point too long" }).first();
    await expect(long.locator(".schema-badge")).toHaveText("⚠ schema");
    await expect(
      grid.getByRole("row").filter({ hasText: "initialize" }).locator(".schema-badge"),
    ).toHaveCount(0);
    await long.click();
    const section = page.getByRole("region", { name: "Schema violations" });
    await expect(section).toContainText("/params/idempotencyKey: must NOT have more than 255 characters");
    await bad.click();
    await expect(section).toContainText(
      "checked as PromptResponse against the v2 (+ RFD idempotencyKey) schema",
    );
    await expect(section).toContainText("/result: must have required property 'messageId'");
    await section.scrollIntoViewIfNeeded();
    await shots(page, colorScheme);
    expect(problems).toEqual([]);
    await context.close();
  });
}
