/**
 * The Timeline fits a projector in normal mode, in Chromium against a real `serve --demo` and a
 * plain `serve` with an imported trace: the filter bar is one row at 1280x720 and 1600x1000 (its
 * field shortcuts in a "Filters" menu), each demo scenario's attempts show their whole outcome
 * words in the Result cell at 1280x720 (two lines where one is not enough), and the search box's
 * suggestions close on a chosen value and on a press outside, without covering the box.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { demoUrl, expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";
import { filterShortcut, timelineFilters } from "../harness/timeline-filters.js";
import { importSessionTrace } from "../harness/traces.js";

const hubs = startDemoHubs({ plain: true });

test.describe.configure({ timeout: 150_000 });

async function importSession(page: Page) {
  await page.goto(hubs.plain.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await importSessionTrace(page);
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("duplicate-insert");
}

/** Fails unless the filter bar is one row: no taller than its search box plus its padding, every part beside it. */
async function expectOneRow(page: Page, what: string) {
  const bar = timelineFilters(page);
  const search = bar.getByRole("searchbox", { name: "Search" });
  const barBox = await bar.boundingBox();
  const searchBox = await search.boundingBox();
  if (!barBox || !searchBox) throw new Error(`${what}: the filter bar has no box`);
  const pad = await bar.evaluate((el) => {
    const s = getComputedStyle(el);
    return Number.parseFloat(s.paddingTop) + Number.parseFloat(s.paddingBottom) + 1;
  });
  expect(barBox.height, `${what}: the bar is one control row high`).toBeLessThanOrEqual(
    searchBox.height + pad + 1,
  );
  const chips = bar.getByRole("list", { name: "Verdict counts" });
  // Retried as a whole: the last live events of a played scenario can still remove a chip (a
  // verdict a later attempt settles) while its parts are looked at one by one.
  await expect(async () => {
    const parts: Locator[] = [
      bar.getByRole("button", { name: /^Filters/ }),
      bar.getByRole("button", { name: "Clear filters" }),
      chips,
      // a chip the strip has no room for is scrolled to (the strip scrolls sideways; the menu's Verdict lists all)
      ...(await chips.getByRole("button").all()),
    ];
    expect(parts.length, `${what}: the bar has its parts`).toBeGreaterThan(3);
    for (const part of parts) {
      await part.scrollIntoViewIfNeeded({ timeout: 2_000 });
      const box = await part.boundingBox();
      const name = (await part.textContent()) || (await part.getAttribute("aria-label"));
      expect(box, `${what}: ${name} has a box`).not.toBeNull();
      if (!box) continue;
      const middle = box.y + box.height / 2;
      expect(middle, `${what}: ${name} is beside the search box`).toBeGreaterThan(searchBox.y);
      expect(middle, `${what}: ${name} is beside the search box`).toBeLessThan(
        searchBox.y + searchBox.height,
      );
      expect(box.x + box.width, `${what}: ${name} is inside the bar`).toBeLessThanOrEqual(
        barBox.x + barBox.width + 0.5,
      );
    }
  }).toPass({ timeout: 15_000 });
  await chips.evaluate((el) => {
    el.scrollLeft = 0;
  });
}

for (const [width, height] of [
  [1280, 720],
  [1600, 1000],
] as const) {
  test(`normal mode at ${width}x${height}: the filter bar is one row; its shortcuts are in the Filters menu`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const problems = guardConsole(page);
    await importSession(page);
    await expect(page.locator("html")).toHaveAttribute("data-present", "off");
    await expectOneRow(page, "an imported trace");
    // a filter set through the menu shows in the query, the menu's button counts it, the bar stays one row
    await (await filterShortcut(page, "Outcome")).selectOption("error");
    const search = timelineFilters(page).getByRole("searchbox", { name: "Search" });
    await expect(search).toHaveValue("outcome:error");
    await page.keyboard.press("Escape");
    const menu = timelineFilters(page).getByRole("button", { name: /^Filters/ });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toHaveAccessibleName("Filters (1) ▾");
    await expectOneRow(page, "with a filter set");

    // the demo, played, in normal mode
    await page.goto(hubs.demo.url);
    await expectDemoReady(page);
    await playScenario(page, "Lost response, then a keyed retry");
    await expectOneRow(page, "the demo played");
    expect(problems).toEqual([]);
    await context.close();
  });
}

/** The demo's scenarios, each with its submission's prompt and its attempts' words that carry the claim. */
const STORIES = [
  {
    title: "Lost response, then a keyed retry",
    prompt: "Deploy the site",
    words: ["answer dropped by the inspector: the client never saw it", "(no new insert)"],
  },
  {
    title: "Agent crash, restart, resume, retry",
    prompt: "Deploy the site",
    words: ["(no new insert)"],
  },
  {
    title: "Retry while held, then cancel",
    prompt: "Deploy to production",
    words: ["cancelled (-32800) before insertion", "cancelled (-32800) before insertion"],
  },
  {
    title: "The same story against a naive agent",
    prompt: "Deploy the site",
    words: ["answer dropped by the inspector: the client never saw it", "inserted → messageId"],
  },
] as const;

test("normal mode at 1280x720: each scenario's attempts show their whole outcome words in the Result cell", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = guardConsole(page);
  await page.goto(demoUrl(hubs.demo));
  await expectDemoReady(page);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  for (const story of STORIES) {
    await playScenario(page, story.title);
    const row = grid.getByRole("row").filter({ hasText: story.prompt }).first();
    await row.click();
    await page.keyboard.press("ArrowRight");
    await expect(row).toHaveAttribute("aria-expanded", "true");
    const attempts = grid.getByRole("row").filter({ hasText: /attempt \d/ });
    await expect(attempts).toHaveCount(2);
    const column = await grid.evaluate((t) =>
      [...t.querySelectorAll("th")].findIndex((th) => th.getAttribute("aria-label") === "Result"),
    );
    expect(column, "the Result column is shown").toBeGreaterThan(0);
    // the Prompt column is on screen beside the side column: its header and the row's prompt lie
    // inside the table's visible area, which ends where the side column begins
    const area = await page.locator(".vtable").filter({ has: grid }).boundingBox();
    for (const [what, el] of [
      ["the Prompt header", grid.getByRole("columnheader", { name: "Prompt / detail" })],
      ["the prompt", row.getByRole("gridcell").filter({ hasText: story.prompt })],
    ] as const) {
      const box = await el.boundingBox();
      expect(box, `${story.title}: ${what} has a box`).not.toBeNull();
      expect(box && box.x + box.width, `${story.title}: ${what} is on screen`).toBeLessThanOrEqual(
        Math.min(1280, (area?.x ?? 0) + (area?.width ?? 0)) + 0.5,
      );
    }
    const shown = [];
    for (let i = 0; i < 2; i++) {
      const result = attempts.nth(i).getByRole("gridcell").nth(column);
      shown.push((await result.textContent()) ?? "");
      const box = await result.boundingBox();
      expect(box && box.y + box.height, `${story.title}: attempt ${i + 1} is on screen`).toBeLessThanOrEqual(
        720,
      );
      expect(box && box.x + box.width, `${story.title}: attempt ${i + 1} is on screen`).toBeLessThanOrEqual(
        1280,
      );
      // nothing of the words is cut: the cell and its chip show all they hold (only long ids are shortened)
      const cut = await result.evaluate((td) =>
        [td, ...td.querySelectorAll(".badge")].some(
          (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
        ),
      );
      expect(cut, `${story.title}: attempt ${i + 1}'s words are cut: ${shown[i]}`).toBe(false);
    }
    for (const w of story.words) expect(shown.join(" | "), story.title).toContain(w);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Escape");
  }
  expect(problems).toEqual([]);
  await context.close();
});

test("the suggestions close on a chosen value and on a press outside, below the search box", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = guardConsole(page);
  await importSession(page);
  const bar = timelineFilters(page);
  const search = bar.getByRole("searchbox", { name: "Search" });
  const list = bar.getByRole("listbox", { name: "Suggestions" });

  // a field name keeps the list open for its values; a value closes it
  await search.pressSequentially("verd");
  await expect(list.getByRole("option")).toHaveCount(1);
  await list.getByRole("option", { name: /verdict:/ }).click();
  await expect(search).toHaveValue("verdict:");
  await expect(list).toBeVisible();
  const box = await list.boundingBox();
  const input = await search.boundingBox();
  expect(box && input ? box.y : 0, "the list starts below the search box").toBeGreaterThanOrEqual(
    (input?.y ?? 0) + (input?.height ?? 0) - 0.5,
  );
  expect(box?.height ?? 999, "the list is a few rows, not the window").toBeLessThanOrEqual(720 * 0.4 + 1);
  await list.getByRole("option", { name: /deduplicated/ }).click();
  await expect(search).toHaveValue("verdict:deduplicated ");
  await expect(list).toHaveCount(0);
  await expect(search).toBeFocused();

  // typing opens it again; a press outside (on the grid's empty part, nothing focusable) closes it
  await search.pressSequentially("method:");
  await expect(list).toBeVisible();
  await page.getByRole("region", { name: "Details" }).click({ position: { x: 5, y: 5 } });
  await expect(list).toHaveCount(0);
  // and the controls it covered work at once
  await search.fill("");
  await search.pressSequentially("key:");
  await expect(list).toBeVisible();
  await page.getByRole("checkbox", { name: "Lifecycle events" }).click();
  await expect(list).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Lifecycle events" })).toBeChecked();
  expect(problems).toEqual([]);
});
