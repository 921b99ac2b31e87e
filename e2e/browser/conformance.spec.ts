/**
 * The Conformance tab in Chromium against a real `serve`: the hub runs the suite on the real demo
 * agent through the real tap; the page picks the agent, watches the cases tick and opens a case's
 * trace in the timeline. A command from the local agents file runs only after confirmation.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { cliPath, projectRoot } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { openTraceList, shownTrace } from "../harness/trace-picker.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-e2e-agents-"));
  const agents = join(dir, "agents.json");
  const command = [
    process.execPath,
    cliPath,
    "demo-agent",
    "--store",
    join(dir, "store"),
    "--turn-ms",
    "300",
  ];
  // An agent that exits on a bad environment, and one that prints a stack trace when its input closes.
  const broken = [
    process.execPath,
    "-e",
    "console.error('FATAL: MY_AGENT_TOKEN is not set'); console.error('  at config.js:3'); process.exit(1)",
  ];
  const noisy = [
    process.execPath,
    join(projectRoot, "electron/conformance/testing/teardown-agent.mjs"),
    "noisy",
    cliPath,
    "--store",
    join(dir, "noisy-store"),
    "--turn-ms",
    "300",
  ];
  writeFileSync(
    agents,
    JSON.stringify({
      agents: [
        { name: "Team agent", command },
        { name: "Broken agent", command: broken },
        { name: "Noisy agent", command: noisy },
      ],
    }),
  );
  hub = await startServe(30_000, ["--agents", agents]);
});
test.afterAll(async () => {
  await hub?.stop();
});

test.describe.configure({ timeout: 120_000 });

async function openTab(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByRole("tab", { name: "Conformance" }).click();
  await expect(page.getByRole("heading", { name: "Run the conformance suite" })).toBeVisible();
}

async function onlyCases(page: Page, names: readonly string[]) {
  await page.getByText(/^Cases: /).click();
  for (const box of await page.locator(".case-picker input[type=checkbox]").all()) {
    const label = (await box.locator("xpath=..").textContent()) ?? "";
    await box.setChecked(names.some((n) => label.trim().startsWith(n)));
  }
  await expect(page.getByText(/^Cases: /)).toHaveText(`Cases: ${names.length} of 11`);
}

test("runs the built-in naive agent, ticks the cases and opens a failed case's trace in the timeline", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await openTab(page);
  await page.getByLabel("Agent under test").selectOption({ label: "demo-agent --mode naive" });
  await expect(page.getByTestId("agent-target").first()).toContainText("demo-agent --mode naive");
  await onlyCases(page, ["retry-same-connection", "keys-private"]);
  await page.getByRole("button", { name: "Run suite" }).click();

  const table = page.getByRole("table", { name: "Conformance cases" });
  const retry = table.locator('tr[data-case="retry-same-connection"]');
  await expect(retry).toHaveAttribute("data-state", /running|fail/, { timeout: 30_000 });
  await expect(retry).toHaveAttribute("data-state", "fail", { timeout: 60_000 });
  await expect(retry).toContainText("not the original");
  await expect(table.locator('tr[data-case="keys-private"]')).toHaveAttribute("data-state", "pass", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("run-verdict")).toContainText(
    "Not conformant: 1 passed, 1 failed (1 required)",
  );
  await page.screenshot({ path: testInfo.outputPath("conformance-naive.png") });

  await retry.getByRole("button", { name: "Open trace" }).click();
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  await expect(shownTrace(page)).toHaveAccessibleName(
    /^Shown trace: conformance \S+ retry-same-connection, file, /,
  );
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid).toContainText("duplicate-insert");

  // A second click shows the same trace again instead of importing another copy.
  await page.getByRole("tab", { name: "Conformance" }).click();
  await retry.getByRole("button", { name: "Open trace" }).click();
  await expect(shownTrace(page)).toHaveAccessibleName(/ retry-same-connection, file, /);
  const list = await openTraceList(page);
  await expect(list.getByRole("option").filter({ hasText: "retry-same-connection" })).toHaveCount(1);
  await page.keyboard.press("Escape");
  expect(problems).toEqual([]);
});

test("a command from the agents file runs only after the user confirms it", async ({ page }) => {
  const problems = guardConsole(page);
  await openTab(page);
  await page.getByLabel("Agent under test").selectOption({ label: "Team agent" });
  await expect(page.getByTestId("agent-target").first()).toContainText("demo-agent --store");
  await onlyCases(page, ["key-validation"]);
  await page.getByRole("button", { name: "Run suite" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm the command" });
  await expect(confirm).toContainText("demo-agent --store");
  await expect(confirm).toContainText("your local agents file");
  await confirm.getByRole("button", { name: "Back" }).click();
  await expect(confirm).toHaveCount(0);
  await page.getByRole("button", { name: "Run suite" }).click();
  await confirm.getByRole("button", { name: "Run it" }).click();
  await expect(page.getByTestId("run-verdict")).toContainText("Conformant: 1 passed", { timeout: 60_000 });
  await expect(page.locator('tr[data-case="key-validation"]')).toHaveAttribute("data-state", "pass");
  // The start's "the cases tick below" gives way to how the run ended.
  await expect(page.locator("output.notice-line")).toContainText(
    "Conformance run on Team agent: finished: 1 passed, 0 failed, 0 skipped",
  );
  await expect(page.locator("output.notice-line")).not.toContainText("tick below");
  expect(problems).toEqual([]);
});

test("an agent that does not start: its cause once, with its stderr, and every case not run", async ({
  page,
}) => {
  const problems = guardConsole(page);
  for (const [width, height] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width, height });
    await openTab(page);
    await page.getByLabel("Agent under test").selectOption({ label: "Broken agent" });
    await page.getByRole("button", { name: "Run suite" }).click();
    await page
      .getByRole("alertdialog", { name: "Confirm the command" })
      .getByRole("button", { name: "Run it" })
      .click();
    const verdict = page.getByTestId("run-verdict");
    await expect(verdict).toContainText("Not conformant: 0 passed, 0 failed, 0 skipped, 11 not run", {
      timeout: 60_000,
    });
    const summary = page.locator(".run-summary");
    await expect(summary).toContainText(
      "The agent did not start: the agent exited with code 1 before answering initialize; its stderr: FATAL: MY_AGENT_TOKEN is not set. No case ran.",
    );
    await expect(
      page.getByRole("figure", { name: "The agent's first stderr lines:" }).locator("pre"),
    ).toHaveText("FATAL: MY_AGENT_TOKEN is not set\n  at config.js:3");
    const rows = page.getByRole("table", { name: "Conformance cases" }).locator("tbody tr");
    await expect(rows).toHaveCount(11);
    await expect(page.locator('tr[data-state="not-run"]')).toHaveCount(11);
    await expect(page.locator('tr[data-state="not-run"]').first()).toContainText(
      "not run: the agent did not answer initialize",
    );
    // The cause is said once, above the table, not in every row.
    await expect(page.getByRole("table", { name: "Conformance cases" })).not.toContainText("MY_AGENT_TOKEN");
    await page.screenshot({ path: test.info().outputPath(`startup-failure-${width}x${height}.png`) });
  }
  expect(problems).toEqual([]);
});

test("stderr an agent writes while the suite tears a connection down is marked teardown", async ({
  page,
}) => {
  const problems = guardConsole(page);
  for (const [width, height] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width, height });
    await openTab(page);
    await page.getByLabel("Agent under test").selectOption({ label: "Noisy agent" });
    await onlyCases(page, ["retry-after-resume"]);
    await page.getByRole("button", { name: "Run suite" }).click();
    await page
      .getByRole("alertdialog", { name: "Confirm the command" })
      .getByRole("button", { name: "Run it" })
      .click();
    const row = page.locator('tr[data-case="retry-after-resume"]');
    await expect(row).toHaveAttribute("data-state", "pass", { timeout: 60_000 });
    await row.getByRole("button", { name: "Open trace" }).click();
    await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
    const stderr = page.getByRole("region", { name: "Agent stderr" });
    await expect(stderr.locator(".stderr__teardown")).toHaveCount(4);
    await expect(stderr).toContainText("[teardown] teardown-agent: Error: the connection closed");
    await page.screenshot({ path: test.info().outputPath(`teardown-stderr-${width}x${height}.png`) });
  }
  expect(problems).toEqual([]);
});
