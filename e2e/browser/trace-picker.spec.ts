/**
 * The trace picker against a real `serve` and real taps (`proxy -- demo-agent`, driven by the real
 * `demo-client` or held open): entries name each tap with its start time and status, "Follow
 * newest" is on until the user picks, switching traces clears the filters, rows hidden by filters
 * say so. Every wait is a web-first assertion.
 */
import type { ChildProcess } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { startTime } from "../../renderer/app/toolbar/trace-words.js";
import type { TapSummary } from "../../shared/hub/tap-summary.js";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { filterShortcut } from "../harness/timeline-filters.js";
import { openTraceList, pickTrace, shownTrace } from "../harness/trace-picker.js";

let hub: ServeProcess;
test.beforeEach(async () => {
  hub = await startServe();
});
test.afterEach(async () => {
  await hub.stop();
});

const agent = (store: string) => [process.execPath, cliPath, "demo-agent", "--store", hub.scratch(store)];

/** A tap the test holds open: `proxy --name NAME -- demo-agent`, its stdin kept open. */
function liveTap(name: string): ChildProcess {
  return hub.spawnCli(["proxy", "--name", name, "--", ...agent(`store-${name}`)]);
}

/** A whole session through a tap: the demo client sends one keyed prompt and exits. */
async function finishedTap(name: string): Promise<void> {
  const r = await hub.cli([
    "demo-client",
    "--prompt",
    "write a haiku",
    "--",
    process.execPath,
    cliPath,
    "proxy",
    "--name",
    name,
    "--",
    ...agent(`store-${name}`),
  ]);
  expect(r.code, r.stderr).toBe(0);
}

/** The hub's own view of its taps, by name. */
async function tapsByName(): Promise<Map<string, TapSummary>> {
  const r = await hub.cli(["taps", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return new Map((JSON.parse(r.stdout) as TapSummary[]).map((t) => [t.name, t]));
}

async function open(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
}

test("two live taps are two named entries; follow newest until a pick; a switch clears the filters", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await open(page);
  await expect(shownTrace(page)).toHaveAccessibleName("Shown trace: no trace yet");
  const follow = page.getByRole("button", { name: "Follow newest" });
  await expect(follow).toHaveAttribute("aria-pressed", "true");

  await finishedTap("alpha: haiku run");
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: alpha: haiku run, ended, started /);
  liveTap("beta <i>repro</i>");
  // following: the new tap takes the view
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: beta <i>repro<\/i>, live, started /);

  await expect.poll(async () => (await tapsByName()).get("beta <i>repro</i>")?.agentPids.length).toBe(1);
  const taps = await tapsByName();
  const alpha = taps.get("alpha: haiku run") as TapSummary;
  const beta = taps.get("beta <i>repro</i>") as TapSummary;
  const list = await openTraceList(page);
  const entries = list.getByRole("option");
  await expect(entries).toHaveCount(2);
  // newest first, each in words: name, status, start time, records, agent, verdicts
  await expect(entries.nth(0)).toContainText("beta <i>repro</i>");
  await expect(entries.nth(0)).toContainText("live");
  await expect(entries.nth(0)).toContainText(`started ${startTime(beta.startedAt)}`);
  await expect(entries.nth(0)).toContainText(`agent pid ${beta.agentPids[0]}`);
  await expect(entries.nth(0)).toContainText("no verdicts yet");
  await expect(entries.nth(0)).toHaveAttribute("aria-selected", "true");
  await expect(entries.nth(1)).toContainText("alpha: haiku run");
  await expect(entries.nth(1)).toContainText("ended");
  await expect(entries.nth(1)).toContainText(`started ${startTime(alpha.startedAt)}`);
  await expect(entries.nth(1)).toContainText(`${alpha.records} records`);
  await expect(entries.nth(1)).toContainText("agent exited (code 0)");
  await expect(entries.nth(1)).toContainText("1 ok");
  await expect(page.locator(".trace-entry i")).toHaveCount(0); // wire text stays text
  // the search box narrows the list; Escape closes it
  await page.getByRole("combobox", { name: "Find a trace" }).fill("haiku");
  await expect(entries).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();

  // picking (here from the keyboard: down from the shown entry, Enter) turns following off
  await openTraceList(page);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listbox", { name: "Traces" })).toBeHidden();
  await expect(shownTrace(page)).toBeFocused();
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: alpha: haiku run, ended/);
  await expect(follow).toHaveAttribute("aria-pressed", "false");
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid.getByRole("row").filter({ hasText: "write a haiku" })).toContainText("single");

  // a filter that hides every row says so, with a way out
  await (await filterShortcut(page, "Verdict")).selectOption("duplicate-insert");
  await page.keyboard.press("Escape");
  const hidden = page.getByRole("status", { name: "Rows hidden by filters" });
  await expect(hidden).toHaveText(/^All \d+ rows hidden by filters — Clear$/);
  await hidden.getByRole("button", { name: "Clear" }).click();
  await expect(hidden).toBeHidden();
  await expect(grid.getByRole("row").filter({ hasText: "write a haiku" })).toBeVisible();

  // not following: a new tap does not take the view, and the user's filter stays
  await page.getByRole("searchbox", { name: "Search" }).fill("haiku");
  liveTap("gamma");
  await expect((await openTraceList(page)).getByRole("option")).toHaveCount(3);
  await page.keyboard.press("Escape");
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: alpha: haiku run/);
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("haiku");

  // following again jumps to the newest live trace and leaves the old trace's filter behind
  await follow.click();
  await expect(follow).toHaveAttribute("aria-pressed", "true");
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: gamma, live/);
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("");

  // a pick clears the filters too, so coming back to a trace shows all its rows
  await pickTrace(page, "alpha: haiku run");
  await page.getByRole("searchbox", { name: "Search" }).fill("nothing matches this");
  await expect(hidden).toHaveText(/^All \d+ rows hidden by filters — Clear$/);
  await pickTrace(page, "beta <i>repro</i>");
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("");
  await pickTrace(page, "alpha: haiku run");
  await expect(hidden).toBeHidden();
  await expect(grid.getByRole("row").filter({ hasText: "write a haiku" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("at 1280×720 and 1600×1000, light and dark, the open picker names every trace without scrolling", async ({
  browser,
}, testInfo) => {
  await finishedTap("alpha: haiku run");
  liveTap("beta: QA repro of the lost response");
  await expect
    .poll(async () => (await tapsByName()).get("beta: QA repro of the lost response")?.attached)
    .toBe(true);
  liveTap("claude-code-acp @ myrepo");
  await expect.poll(async () => (await tapsByName()).get("claude-code-acp @ myrepo")?.attached).toBe(true);
  for (const [width, height] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const problems = guardConsole(page);
      await open(page);
      await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
      await expect(shownTrace(page)).toHaveAccessibleName(/claude-code-acp @ myrepo, live/);
      // the picker takes no row of its own: the timeline keeps most of the window
      const timeline = await page.getByRole("tabpanel").boundingBox();
      expect(timeline?.height ?? 0).toBeGreaterThan(height * 0.5);
      await page.screenshot({
        path: testInfo.outputPath(`picker-closed-${width}x${height}-${colorScheme}.png`),
      });
      const list = await openTraceList(page);
      const entries = list.getByRole("option");
      await expect(entries).toHaveCount(3);
      for (const name of [
        "claude-code-acp @ myrepo",
        "beta: QA repro of the lost response",
        "alpha: haiku run",
      ]) {
        const entry = entries.filter({ hasText: name });
        await expect(entry).toBeInViewport({ ratio: 1 });
        await expect(entry).toContainText(/started \d\d:\d\d:\d\d · \d+ records/);
      }
      await page.screenshot({
        path: testInfo.outputPath(`picker-open-${width}x${height}-${colorScheme}.png`),
      });
      expect(problems).toEqual([]);
      await context.close();
    }
  }
});
