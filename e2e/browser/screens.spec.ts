/**
 * Screenshot comparisons of the main states, made with Debian's Chromium (/usr/bin/chromium, the
 * config's browser) so they are stable on these machines: the start screen, a demo scenario done
 * in presenter mode (light and dark), and an imported trace in the dark theme with a submission
 * selected. What changes from run to run is masked: clock times, pids, ports, keys, message ids,
 * record counts, and the table of a live demo trace (the demo client may reconnect once more or
 * less); notices are dismissed. The baselines live in screens.spec.ts-snapshots/; regenerate them
 * with `npx playwright test e2e/browser/screens.spec.ts --update-snapshots` after a deliberate
 * change of the look, and open the new PNGs before committing them.
 */
import { expect, type Page, test } from "@playwright/test";
import { demoUrl, expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";
import { importSessionTrace } from "../harness/traces.js";

const hubs = startDemoHubs({ plain: true });

test.describe.configure({ timeout: 90_000 });

/** Up to 1% of the pixels may differ (anti-aliasing); a moved panel or a changed colour is far more. */
const COMPARE = { maxDiffPixelRatio: 0.01, animations: "disabled", caret: "hide" } as const;

/** Parts that differ between runs of the same state. */
function volatile(page: Page) {
  return [
    page.locator(".trace-picker__time"),
    page.locator(".toolbar__agent"),
    page.locator(".trace-facts"),
    page.locator(".demo-panel__status"),
    page.locator(".demo-panel__subs"),
    page.locator(".vtable"),
    page.locator(".notice-line"),
  ];
}

async function dismissNotice(page: Page) {
  const close = page.getByRole("button", { name: "Dismiss notice" });
  if (await close.isVisible()) await close.click();
  await expect(close).toHaveCount(0);
}

test("the start screen: the first three things to do", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: "light" });
  const page = await context.newPage();
  await page.goto(hubs.plain.url);
  await expect(page.getByRole("list", { name: "First steps" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expect(page).toHaveScreenshot("start-screen-1280x720-light.png", COMPARE);
  await context.close();
});

// Two different stories, so a caption still showing the other test's finished run cannot pass for this one.
for (const [colorScheme, title, verdict] of [
  ["light", "Lost response, then a keyed retry", "deduplicated"],
  ["dark", "The same story against a naive agent", "duplicate-insert"],
] as const) {
  test(`a scenario done, in presenter mode, ${colorScheme}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    await page.goto(demoUrl(hubs.demo, true));
    await expectDemoReady(page);
    await playScenario(page, title);
    await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText(verdict);
    await dismissNotice(page);
    await expect(page).toHaveScreenshot(`presenter-done-1280x720-${colorScheme}.png`, {
      ...COMPARE,
      mask: volatile(page),
    });
    await context.close();
  });
}

test("an imported trace in the dark theme, a submission selected", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto(hubs.plain.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const grid = await importSessionTrace(page);
  await grid.getByRole("row").filter({ hasText: "write a haiku" }).first().click();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("deduplicated");
  await dismissNotice(page);
  // the imported trace's times come from the file; only the local clock's zone could move them
  await expect(page).toHaveScreenshot("imported-dark-1600x1000.png", {
    ...COMPARE,
    mask: [page.locator(".trace-picker__time"), page.locator(".notice-line")],
  });
  await context.close();
});
