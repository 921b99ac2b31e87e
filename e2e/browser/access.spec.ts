import { expect, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

test("the UI refuses to load without the token", async ({ page }) => {
  const noToken = await page.goto(hub.bareUrl);
  expect(noToken?.status()).toBe(401);
  await expect(page.locator("body")).toContainText(/token/i);
  await expect(page.getByRole("button", { name: "Kill agent" })).toHaveCount(0);

  const wrong = await page.goto(`${hub.bareUrl}?token=not-the-token`);
  expect(wrong?.status()).toBe(401);
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveCount(0);

  // The API refuses too: nothing but the page's own token gets in.
  expect((await page.request.get(`${hub.bareUrl}api/faults`)).status()).toBe(401);
});

test("loads with the token, removes it from the address bar, and survives a reload", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  expect(page.url()).not.toContain("token");
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "No frames yet" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("Nothing yet");
  await page.screenshot({ path: testInfo.outputPath("main-view-empty.png") });

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  expect(problems).toEqual([]);
});

test("the theme toggle switches between dark and light and is remembered", async ({ page }) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  const html = page.locator("html");
  const toggle = page.getByRole("button", { name: "Dark theme" });
  const startDark = (await html.getAttribute("data-theme")) === "dark";
  await expect(toggle).toHaveAttribute("aria-pressed", String(startDark));
  const bgBefore = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await toggle.click();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(bgBefore);
  await page.getByRole("button", { name: "Large text" }).click();
  await expect(html).toHaveAttribute("data-text", "large");
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  await page.getByRole("button", { name: "Large text" }).click();
  expect(problems).toEqual([]);
});
