/**
 * The QA loop in the app: a session recorded live through the hub (a correct agent, a lost answer
 * retried by the inspector) is replayed against the hub's configured naive agent ("Replay
 * against…", confirmed), then "Compare with the original" opens the Diff tab: the key went from
 * deduplicated to duplicate-insert, marked worse, with the same words as `diff A B`; a side's
 * link shows that trace's Timeline row. Screenshots at 1280x720 and 1600x1000, light and dark.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { openTraceList } from "../harness/trace-picker.js";

let dir: string;
let hub: ServeProcess;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-diff-view-"));
  hub = await startServe(15_000, [
    "--",
    process.execPath,
    cliPath,
    "demo-agent",
    "--mode",
    "naive",
    "--store",
    join(dir, "naive-store"),
  ]);
  const run = await hub.cli([
    "demo-client",
    "--prompt",
    "deploy it",
    "--",
    process.execPath,
    cliPath,
    "proxy",
    "--name",
    "original",
    "--fault",
    "lose-and-retry:method=session/prompt",
    "--",
    process.execPath,
    cliPath,
    "demo-agent",
    "--store",
    join(dir, "store"),
  ]);
  expect(run.code, run.stderr).toBe(0);
});
test.afterAll(async () => {
  await hub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("replay a recorded session against the naive agent, then compare: the key got worse", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const list = await openTraceList(page);
  await list.getByRole("option").filter({ hasText: "original" }).click();
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid.getByRole("row").filter({ hasText: "deduplicated" })).toHaveCount(1);

  const compare = page.getByRole("button", { name: "Compare", exact: true });
  await compare.click();
  await page.getByRole("button", { name: "Replay against…" }).click();
  await page.getByRole("button", { name: "Replay…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm the replay" });
  await expect(confirm).toContainText("demo-agent");
  await confirm.getByRole("button", { name: "Run it" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Replay against .*: started/ })).toBeVisible({
    timeout: 30_000,
  });
  // The replay is shown; once it ended, it can be compared with its original.
  await expect(grid.getByRole("row").filter({ hasText: "duplicate-insert" })).toHaveCount(1, {
    timeout: 30_000,
  });
  await compare.click();
  await page.getByRole("button", { name: "Compare with the original" }).click({ timeout: 30_000 });

  const submissions = page.getByRole("table", { name: "Submissions compared" });
  await expect(submissions).toBeVisible();
  const worse = submissions.getByRole("row").filter({ hasText: "deduplicated → duplicate-insert" });
  await expect(worse).toHaveCount(1);
  await expect(worse).toContainText("worse");
  for (const theme of ["light", "dark"] as const) {
    if ((await page.locator("html").getAttribute("data-theme")) !== theme)
      await page.getByRole("button", { name: "Dark theme" }).click();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath(`diff-${theme}-1280x720.png`) });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.screenshot({ path: test.info().outputPath(`diff-${theme}-1600x1000.png`) });
  }
  // A side's link shows that trace's Timeline with the submission selected.
  await worse.getByRole("button", { name: /^A seq \d+$/ }).click();
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  await expect(grid.getByRole("row", { selected: true })).toContainText("deduplicated");
  expect(problems).toEqual([]);
});
