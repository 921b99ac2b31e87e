/**
 * The built-in demo in Chromium against a real `serve --demo`: the scenario player drives the
 * reference agent behind the real tap, and the timeline judges the hub's copy of the trace.
 * Fast turns and no pause between steps; every wait is a web-first assertion.
 */
import { execFileSync } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { openTraceList, pickTrace, shownTrace } from "../harness/trace-picker.js";

/** The demo needs the tap's remote front (`proxy --listen`); a build without it skips, saying why. */
function proxyListens(): boolean {
  return execFileSync(process.execPath, [cliPath, "proxy", "--help"], { encoding: "utf8" }).includes(
    "--listen",
  );
}

let hub: ServeProcess;
test.beforeAll(async () => {
  test.skip(!proxyListens(), "this build's proxy has no --listen (the tap4 branch), which the demo runs on");
  hub = await startServe(30_000, ["--demo", "--demo-turn-ms", "200", "--demo-timeout-ms", "3000"]);
});
test.afterAll(async () => {
  await hub?.stop();
});

async function open(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("Demo ready", {
    timeout: 20_000,
  });
  // the demo starts folded; these tests read the submissions and use the client's form
  await page.getByRole("button", { name: "Demo ▸" }).click();
}

async function play(page: Page, title: string) {
  await page.getByLabel("Speed").selectOption({ label: "No pause" });
  await page.getByRole("button", { name: `Play ${title}` }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  await expect(caption).toContainText(title);
  // The caption's header names the scenario and the step, its status what the step is doing; the
  // toolbar's notice (which the scenario's own fault notices soon replace) never says "Play: done"
  // while the steps run.
  await expect(caption.locator("header")).toContainText(new RegExp(`${title} · Step \\d of \\d`));
  await expect(page.locator("output.notice-line")).not.toContainText("Play: done");
  await expect(caption.getByRole("status")).toContainText("Finished: all", { timeout: 25_000 });
  await expect(caption.locator("header")).toContainText(title);
  return caption;
}

test.describe.configure({ timeout: 60_000 });

test("lost response, then a keyed retry: deduplicated, one messageId", async ({ page }, testInfo) => {
  const problems = guardConsole(page);
  await open(page);
  const caption = await play(page, "Lost response, then a keyed retry");
  await expect(caption).toContainText("Step 4 of 4");
  await expect(caption).toContainText("Verdict deduplicated");

  const subs = page.getByRole("list", { name: "Submissions" });
  const a = subs.getByRole("listitem").filter({ hasText: "A: Deploy the site" });
  await expect(a).toContainText("answered, 2 attempts");
  await expect(a).toContainText(/messageId [0-9a-f]{8}… · inspector: 1 insert, deduplicated/);
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("mode correct");
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("1 deploy");

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: "Deploy the site" }).first();
  await expect(row).toContainText("deduplicated");
  await expect(grid.getByRole("row").filter({ hasText: "duplicate-insert" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("demo-lost-response.png"), fullPage: true });
  expect(problems).toEqual([]);
});

test("the same story against a naive agent: duplicate-insert, two deploys", async ({ page }, testInfo) => {
  const problems = guardConsole(page);
  await open(page);
  const caption = await play(page, "The same story against a naive agent");
  await expect(caption).toContainText("Verdict duplicate-insert");
  const status = page.getByRole("status", { name: "Demo status" });
  await expect(status).toContainText("mode naive");
  await expect(status).toContainText(/[2-9] deploys/);
  await expect(
    page
      .getByRole("list", { name: "Submissions" })
      .getByRole("listitem")
      .filter({ hasText: "A: Deploy the site" }),
  ).toContainText("inspector: 2 inserts, duplicate-insert");

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid.getByRole("row").filter({ hasText: "Deploy the site" }).first()).toContainText(
    "duplicate-insert",
  );
  await page.screenshot({ path: testInfo.outputPath("demo-naive-duplicate.png"), fullPage: true });
  expect(problems).toEqual([]);
});

test("a presenter steps through by hand, and sends from the demo panel without a key", async ({ page }) => {
  await open(page);
  await page.getByLabel("Speed").selectOption({ label: "By hand (Next step)" });
  await page.getByRole("button", { name: "Play Agent crash, restart, resume, retry" }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  await expect(caption).toContainText("Step 1 of 4");
  await expect(caption.locator("header")).toContainText("Agent crash, restart, resume, retry · Step 1 of 4");
  await expect(caption.getByRole("status")).toContainText("Done; Next step goes on");
  await expect(caption.getByRole("status")).toContainText("kill-agent rule is armed");
  await caption.getByRole("button", { name: "Next step" }).click();
  await expect(caption).toContainText("Step 2 of 4");
  await expect(caption.getByRole("status")).toContainText("client reconnects", { timeout: 20_000 });
  await caption.getByRole("button", { name: "Stop" }).click();
  await expect(caption.getByRole("status")).toContainText("Stopped at step 2 of 4");

  await page.getByRole("textbox", { name: "Prompt" }).fill("hello without a key");
  await page.getByRole("button", { name: "Send without key" }).click();
  await expect(
    page
      .getByRole("list", { name: "Submissions" })
      .getByRole("listitem")
      .filter({ hasText: "hello without a key" }),
  ).toContainText(/^#[1-9]\d*: hello without a key no key · answered, 1 attempt/);
});

test("a scenario keeps its own trace on screen while an unrelated tap attaches", async ({ page }) => {
  const problems = guardConsole(page);
  await open(page);
  await page.getByLabel("Speed").selectOption({ label: "By hand (Next step)" });
  await page.getByRole("button", { name: "Play Lost response, then a keyed retry" }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  await expect(caption).toContainText("Step 1 of 4");
  const demoTrace = /^Shown trace: Lost response, then a keyed retry \(demo\), live, started /;
  await expect(shownTrace(page)).toHaveAccessibleName(demoTrace);
  await expect(page.getByRole("button", { name: "Follow newest" })).toHaveAttribute("aria-pressed", "true");

  // an editor's tap attaches to the same hub mid-scenario: listed, but it does not take the view
  const intruder = hub.spawnCli([
    "proxy",
    "--name",
    "editor tap",
    "--",
    process.execPath,
    cliPath,
    "demo-agent",
    "--store",
    hub.scratch("editor-store"),
  ]);
  const list = await openTraceList(page);
  await expect(list.getByRole("option").filter({ hasText: "editor tap" })).toContainText("agent pid");
  await page.keyboard.press("Escape");
  await expect(shownTrace(page)).toHaveAccessibleName(demoTrace);
  await caption.getByRole("button", { name: "Next step" }).click();
  await expect(caption).toContainText("Step 2 of 4");
  await expect(shownTrace(page)).toHaveAccessibleName(demoTrace);
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("Deploy the site");
  await caption.getByRole("button", { name: "Stop" }).click();
  await expect(caption.getByRole("status")).toContainText("Stopped at step 2 of 4");
  await expect(shownTrace(page)).toHaveAccessibleName(demoTrace);

  // the presenter can still look at the other tap by picking it
  await pickTrace(page, "editor tap");
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: editor tap, live/);
  intruder.kill("SIGTERM");
  expect(problems).toEqual([]);
});
