/**
 * Issue 30 item 3 in the built-in demo's two stories (a real `serve --demo`, the reference agent
 * behind the real tap): in "Lost response, then a keyed retry" every attempt of the deduplicated
 * submission is a green ✓, also the one whose answer the inspector dropped; in "The same story
 * against a naive agent" the attempt that inserted the duplicate is a red ✗. Light and dark.
 */
import { execFileSync } from "node:child_process";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  const listens = execFileSync(process.execPath, [cliPath, "proxy", "--help"], { encoding: "utf8" }).includes(
    "--listen",
  );
  test.skip(!listens, "this build's proxy has no --listen, which the demo runs on");
  hub = await startServe(30_000, ["--demo", "--demo-turn-ms", "200", "--demo-timeout-ms", "3000"]);
});
test.afterAll(async () => {
  await hub?.stop();
});

test.describe.configure({ timeout: 90_000 });

async function play(page: Page, title: string): Promise<void> {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("Demo ready", {
    timeout: 20_000,
  });
  await page.getByLabel("Speed").selectOption({ label: "No pause" });
  await page.getByRole("button", { name: `Play ${title}` }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  await expect(caption.getByRole("status")).toContainText("Finished: all", { timeout: 25_000 });
}

/** Expands the "Deploy the site" submission; its attempt rows' Result badges. */
async function deployAttempts(page: Page): Promise<Locator> {
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: "Deploy the site" }).first();
  await row.click();
  await grid.focus();
  await page.keyboard.press("ArrowRight");
  await expect(row).toHaveAttribute("aria-expanded", "true");
  return grid.getByRole("row").filter({ hasText: /attempt \d/ });
}

/**
 * Expands the submission until its two attempt rows show `count` badges of class `badge`. A live
 * publish just after a story finishes can re-render the group collapsed (seen in full-suite runs;
 * the renderer issue owns keeping it open), so the expand and the look are retried together.
 */
async function expandedAttempts(page: Page, badge: string, count: number): Promise<Locator> {
  let attempts: Locator | undefined;
  await expect(async () => {
    attempts = await deployAttempts(page);
    await expect(attempts).toHaveCount(2, { timeout: 1_000 });
    await expect(attempts.locator(badge)).toHaveCount(count, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  return attempts as Locator;
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`${colorScheme}: the correct story's attempts are green, the naive story's duplicate red`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    const problems = guardConsole(page);
    const theme = page.getByRole("button", { name: "Dark theme" });

    await play(page, "Lost response, then a keyed retry");
    if ((await theme.getAttribute("aria-pressed")) !== String(colorScheme === "dark")) await theme.click();
    let attempts = await expandedAttempts(page, ".badge--ok", 2);
    await expect(attempts.locator(".badge--error")).toHaveCount(0);
    await expect(attempts.first().locator(".badge--ok")).toContainText("answer dropped by the inspector");
    await page.screenshot({ path: testInfo.outputPath(`demo-correct-${colorScheme}-1280x720.png`) });

    await play(page, "The same story against a naive agent");
    attempts = await expandedAttempts(page, ".badge--error", 1);
    const duplicate = attempts.locator(".badge--error");
    await expect(duplicate.locator("[aria-hidden=true]").first()).toHaveText("✗");
    await expect(attempts.first().locator(".badge--ok")).toHaveCount(1);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.screenshot({ path: testInfo.outputPath(`demo-naive-${colorScheme}-1600x1000.png`) });
    expect(problems).toEqual([]);
    await context.close();
  });
}
