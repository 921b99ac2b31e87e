/**
 * The Stress section of the Conformance tab in Chromium against a real `serve`: the hub runs the
 * stress mode on the real naive demo agent through the real tap; the page starts a few schedules,
 * watches the runs tick, sees the shrunk failure and opens its minimal failing trace in the timeline.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shownTrace } from "../harness/trace-picker.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000);
});
test.afterAll(async () => {
  await hub?.stop();
});

test.describe.configure({ timeout: 300_000 });

/** Screenshots at both sizes, each with `top` scrolled to the top of its pane first. */
async function shot(page: Page, name: string, top?: Locator) {
  for (const [w, h] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    if (top) await top.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: test.info().outputPath(`${name}-${w}x${h}.png`) });
  }
}

test("runs a few schedules against the naive agent, ticks the runs and opens the minimal failing trace", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByRole("tab", { name: "Conformance" }).click();
  const section = page.getByRole("region", { name: "Stress: random fault schedules" });
  await expect(section).toBeVisible();
  await section.getByLabel("Agent under stress").selectOption({ label: "demo-agent --mode naive" });
  await section.getByLabel("Stress runs").fill("4");
  await section.getByLabel("Stress seed").fill("42");
  await section.getByRole("button", { name: "Run stress" }).click();

  const runs = section.getByRole("table", { name: "Stress runs" });
  await expect(runs.locator("tbody tr").first()).toBeVisible({ timeout: 120_000 });
  await expect(section.getByTestId("stress-failure")).toBeVisible({ timeout: 240_000 });
  await expect(runs.locator("tbody tr")).toHaveCount(4);
  await expect(runs.locator('tr[data-state="fail"]').first()).toContainText("one-insert");
  const verdict = section.getByTestId("stress-verdict");
  await expect(verdict).toContainText(/\d of 4 run\(s\) broke an invariant/);
  const failure = section.getByTestId("stress-failure");
  await expect(failure).toContainText(/Minimal failing schedule: \dp:/);
  await expect(failure).toContainText("one-insert");
  await expect(section.getByTestId("stress-reproduce")).toContainText(
    "conformance --stress 1 --seed 42 --schedule ",
  );
  await shot(page, "stress-naive", section.locator(".stress-status"));

  await failure.getByRole("button", { name: "Open minimal failing trace" }).click();
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: stress \S+ minimal failing, file, /);
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("duplicate-insert");
  await shot(page, "stress-minimal-trace");
  expect(problems).toEqual([]);
});
