/**
 * Keyboard and landmarks in real Chromium against a real `serve` (no demo), at 1280x720 and
 * 1600x1000, light and dark: a skip link is the first focusable element and takes the focus past
 * the toolbar to the shown view; the page has exactly one h1; Tab from the search box goes to the
 * next control (never to <body>); Escape in the search box keeps the query; Escape closes the fault
 * drawer and gives the focus back to its toggle.
 */
import { expect, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shotPath } from "../harness/shots.js";
import { importSessionTrace } from "../harness/traces.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub?.stop();
});

/** The focused element's tag, role and accessible name, or "body". */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return `${el.tagName.toLowerCase()}:${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""}`;
  });
}

for (const [width, height] of [
  [1280, 720],
  [1600, 1000],
] as const) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`skip link, one h1, Tab and Escape keep the focus and the query at ${width}x${height}, ${colorScheme}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const problems = guardConsole(page);
      await page.goto(hub.url);
      await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");

      // the first Tab lands on the skip link, shown while focused
      await page.keyboard.press("Tab");
      const skip = page.getByRole("button", { name: "Skip to the timeline" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.screenshot({
        path: shotPath(`u1-skip-link-${width}x${height}-${colorScheme}.png`),
      });

      // exactly one h1, naming the tool
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("ACP Retry Inspector");

      // the skip link moves the focus past the toolbar and the tabs to the view
      await importSessionTrace(page);
      await skip.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("tabpanel")).toBeFocused();
      await page.keyboard.press("Tab");
      expect(await focused(page)).not.toBe("body");
      // the focused control is inside the view, past the toolbar and the tabs
      expect(
        await page.evaluate(() =>
          document.querySelector('[role="tabpanel"]')?.contains(document.activeElement),
        ),
      ).toBe(true);

      // Tab from the search box goes to the next control, never to <body>
      const search = page.getByRole("searchbox");
      await search.fill("");
      await search.focus();
      await page.keyboard.type("meth"); // the suggestions are open
      await page.keyboard.press("Tab");
      expect(await focused(page)).not.toBe("body");
      await expect(search).not.toBeFocused();
      await search.fill("haiku");
      await search.focus();
      await page.keyboard.press("Escape"); // closes the suggestions only
      await expect(search).toHaveValue("haiku");
      await page.keyboard.press("Escape"); // and again: the query stays
      await expect(search).toHaveValue("haiku");
      await expect(search).toBeFocused();
      await page.keyboard.press("Tab");
      expect(await focused(page)).not.toBe("body");
      await expect(search).not.toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await expect(search).toBeFocused();

      // Escape closes the fault drawer and gives the focus back to the Faults toggle
      const toggle = page.getByRole("button", { name: "Faults", exact: true });
      await toggle.click();
      const drawer = page.getByRole("group", { name: "Fault injection" });
      await expect(drawer).toBeVisible();
      await drawer.getByLabel("Method", { exact: true }).focus();
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(toggle).toBeFocused();
      await expect(search).toHaveValue("haiku");
      await page.screenshot({ path: shotPath(`u1-keyboard-${width}x${height}-${colorScheme}.png`) });
      expect(problems).toEqual([]);
      await context.close();
    });
  }
}
