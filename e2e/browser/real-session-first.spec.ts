/**
 * Real sessions first, in Chromium against a real `serve` (no demo) and a real `serve --demo`, at
 * 1280x720 and 1600x1000, light and dark: without the demo there is no demo chrome (no caption, no
 * demo client, no scenario list); the fault drawer starts closed at every size; with a story
 * played, the Details pane of the selected row keeps a readable height (at least 240 px), its
 * first line on screen.
 */
import { expect, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";
import { shotPath } from "../harness/shots.js";
import { shownTrace } from "../harness/trace-picker.js";
import { importSessionTrace } from "../harness/traces.js";

const hubs = startDemoHubs({ plain: true });

test.describe.configure({ timeout: 120_000 });

const SIZES = [
  [1280, 720],
  [1600, 1000],
] as const;

/** The Details region's visible height: its box clipped to the window. */
async function detailsHeight(page: Page): Promise<number> {
  const box = await page.getByRole("region", { name: "Details" }).boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return 0;
  return Math.min(box.y + box.height, view.height) - Math.max(box.y, 0);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`no demo running: no demo chrome, the drawer closed, the trace on screen (${colorScheme})`, async ({
    browser,
  }) => {
    for (const [width, height] of SIZES) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const problems = guardConsole(page);
      await page.goto(hubs.plain.url);
      await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
      await importSessionTrace(page);
      await expect(page.getByRole("region", { name: "Built-in demo" })).toHaveCount(0);
      await expect(page.getByRole("region", { name: "Scenario caption" })).toHaveCount(0);
      await expect(page.getByRole("region", { name: "Demo client" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Faults", exact: true })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
      await expect(page.getByRole("group", { name: "Fault injection" })).toBeHidden();
      await page
        .getByRole("treegrid", { name: "Timeline" })
        .getByRole("row")
        .filter({ hasText: "deploy" })
        .click();
      const details = page.getByRole("region", { name: "Details" });
      await expect(details.getByText("Submission: session/prompt")).toBeInViewport();
      expect(await detailsHeight(page)).toBeGreaterThanOrEqual(240);
      await page.screenshot({ path: shotPath(`u1-real-${width}x${height}-${colorScheme}.png`) });
      expect(problems).toEqual([]);
      await context.close();
    }
  });
}

test("with a story played: the drawer starts closed and the Details pane keeps at least 240 px", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: "light" });
  const page = await context.newPage();
  const problems = guardConsole(page);
  await page.goto(hubs.demo.url);
  await expectDemoReady(page);
  await expect(page.getByRole("button", { name: "Faults", exact: true })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  await playScenario(page, "Lost response, then a keyed retry");
  const row = page
    .getByRole("treegrid", { name: "Timeline" })
    .getByRole("row")
    .filter({ hasText: "session/prompt" })
    .first();
  await row.click();
  // the demo starts folded: one line for the stories, the caption's words and the client's status
  const fold = page.getByRole("button", { name: "Demo ▸" });
  await expect(fold).toHaveAttribute("aria-expanded", "false");
  await expect(
    page.getByRole("region", { name: "Demo client" }).getByRole("button", { name: "Send with key" }),
  ).toBeHidden();
  const captionText = page.locator(".scenario-caption__text");
  const line = await captionText.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 24);
  expect((await captionText.boundingBox())?.height ?? 999).toBeLessThanOrEqual(line * 1.5);
  const details = page.getByRole("region", { name: "Details" });
  await expect(details.getByText("Submission: session/prompt")).toBeAttached();
  for (const scheme of ["light", "dark"] as const) {
    const dark = page.getByRole("button", { name: "Dark theme" });
    if ((await dark.getAttribute("aria-pressed")) !== String(scheme === "dark")) await dark.click();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const h = await detailsHeight(page);
      expect(h, `Details height at ${width}x${height}`).toBeGreaterThanOrEqual(240);
      await expect(page.getByRole("button", { name: "Faults", exact: true })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
      await page.screenshot({ path: shotPath(`u1-demo-${width}x${height}-${scheme}.png`) });
    }
  }
  // unfolded, the form is there; the Details keep their minimum
  await fold.click();
  await expect(page.getByRole("button", { name: "Demo ▾" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: "Send with key" })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 720 });
  expect(await detailsHeight(page)).toBeGreaterThanOrEqual(240);
  await page.screenshot({ path: shotPath("u1-demo-unfolded-1280x720-dark.png") });
  expect(problems).toEqual([]);
  await context.close();
});

test("a tap that attaches beside the shown trace is announced, with a button to show it", async ({
  browser,
}) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    const problems = guardConsole(page);
    await page.goto(hubs.plain.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    await importSessionTrace(page);
    const name = `editor-tap-${colorScheme}`;
    const tap = hubs.plain.spawnDemoTap(name);
    const banner = page.getByRole("status", { name: "Tap attached" });
    await expect(banner).toContainText(`A tap attached: ${name}`, { timeout: 20_000 });
    await expect(banner).toContainText("demo-agent");
    // the imported trace stays on screen until asked
    await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("write a haiku");
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.screenshot({
        path: shotPath(`u1-tap-attached-${width}x${height}-${colorScheme}.png`),
      });
    }
    await banner.getByRole("button", { name: "Show it" }).click();
    await expect(shownTrace(page)).toHaveAccessibleName(new RegExp(`^Shown trace: ${name}`));
    await expect(banner).toHaveCount(0);
    tap.kill();
    expect(problems).toEqual([]);
    await context.close();
  }
});
