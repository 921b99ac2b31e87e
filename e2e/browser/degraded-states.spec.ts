/**
 * Degraded states in real Chromium against a real `serve`: when the hub stops answering, a banner
 * says in words what still works (the loaded traces) and what does not (live, faults); when a
 * restarted hub on the same port refuses the old token, the imported trace stays on screen and a
 * banner asks for the new link (the page is not replaced by the token page). Shots at 1280x720 and
 * 1600x1000, light and dark.
 */
import { expect, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shotPath } from "../harness/shots.js";
import { importSessionTrace } from "../harness/traces.js";

test.describe.configure({ timeout: 90_000 });

const hubs: ServeProcess[] = [];
test.afterAll(async () => {
  for (const h of hubs) await h.stop().catch(() => {});
});

async function shoot(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const dark = page.getByRole("button", { name: "Dark theme" });
      if ((await dark.getAttribute("aria-pressed")) !== String(scheme === "dark")) await dark.click();
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: shotPath(`u1-${name}-${w}x${h}-${scheme}.png`) });
    }
  }
}

test("hub gone: a banner says what still works; a restarted hub keeps the imported trace and asks for the new link", async ({
  page,
}) => {
  const problems = guardConsole(page);
  const first = await startServe();
  hubs.push(first);
  await page.goto(first.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const grid = await importSessionTrace(page);

  // the hub goes away: after a few seconds of reconnecting, a banner in words, not only the pill
  await first.stop();
  const gone = page.getByRole("alert").filter({ hasText: "The hub is not answering" });
  await expect(gone).toBeVisible({ timeout: 15_000 });
  await expect(gone).toContainText("the traces already loaded stay on screen");
  await expect(gone).toContainText("live updates, new taps, faults and the demo");
  await expect(grid).toContainText("write a haiku");
  await shoot(page, "hub-gone");

  // a new hub on the same port with a new token: the old link is refused, the trace stays
  const second = await startServe(15_000, ["--port", String(first.port)]);
  hubs.push(second);
  const restarted = page.getByRole("alert").filter({ hasText: "The hub restarted" });
  await expect(restarted).toBeVisible({ timeout: 30_000 });
  await expect(restarted).toContainText("open the new link");
  await expect(gone).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "The inspector refused this link's token" })).toHaveCount(0);
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("write a haiku");
  await shoot(page, "hub-restarted");
  // the lost hub and the refused token log network errors; nothing else may
  expect(
    problems.filter((p) => !/401|Unauthorized|WebSocket|Failed to load resource: net::/i.test(p)),
  ).toEqual([]);
});

test("Clear says what it cleared, in the notice and in the emptied Timeline", async ({ page }) => {
  const problems = guardConsole(page);
  const hub = await startServe();
  hubs.push(hub);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await importSessionTrace(page);
  const records = await page.locator(".trace-size").textContent();
  const n = Number(/(\d+) records/.exec(records ?? "")?.[1]);
  expect(n).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  const words = `Cleared ${n} records from this view; the trace file keeps them`;
  await expect(page.locator("output.notice-line")).toContainText(words);
  await expect(page.getByRole("heading", { name: `${words}.` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No frames yet" })).toHaveCount(0);
  await shoot(page, "cleared");
  expect(problems).toEqual([]);
});
