/**
 * No cell is cut silently, in Chromium against a real `serve --demo`: for each of the four demo
 * scenarios, at 1280x720 and 1600x1000, in normal and presenter mode, every Timeline cell on
 * screen whose content is wider (or taller) than the cell gets a tooltip with its whole text when
 * the pointer reaches it; Method and Verdict cells and every header are never cut at all. Also:
 * the notice after a fault fires ("fired at HH:MM:SS on tap X") covers no part of the table, the
 * demo status is on screen at 1280x720 in normal mode, and in presenter mode at 1280 px every shown
 * column is inside the window, Latency and Waterfall unticked in the column menu and back on a tick.
 * An imported trace's longer methods and verdicts wrap to a second line instead of being cut.
 */
import { expect, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { demoUrl, expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";
import { importSessionTrace } from "../harness/traces.js";

const SCENARIOS = [
  "Lost response, then a keyed retry",
  "Agent crash, restart, resume, retry",
  "Retry while held, then cancel",
  "The same story against a naive agent",
] as const;

const hubs = startDemoHubs({ plain: true });

test.describe.configure({ timeout: 240_000 });

/** A cell of the Timeline as the page lays it out. */
interface CellFacts {
  readonly row: number;
  readonly column: string;
  readonly text: string;
  readonly cut: boolean;
  /** An event row's words spill over the empty cells beside them by design: cut means past their own ellipsis, without a tooltip. */
  readonly event?: { readonly cut: boolean; readonly title: string };
}

/** Every Timeline cell inside the window, with whether its content overflows it. */
async function visibleCells(page: Page): Promise<CellFacts[]> {
  return page.evaluate(() => {
    const grid = document.querySelector('[role="treegrid"][aria-label="Timeline"]');
    if (!grid) return [];
    const names = [...grid.querySelectorAll("th")].map((th) => th.getAttribute("aria-label") ?? "");
    const over = (el: Element) =>
      el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    const out: {
      row: number;
      column: string;
      text: string;
      cut: boolean;
      event?: { cut: boolean; title: string };
    }[] = [];
    [...grid.querySelectorAll("tbody tr")].forEach((tr, row) => {
      const words = tr.querySelector(".tl-event__words");
      if (words) {
        const b = words.getBoundingClientRect();
        out.push({
          row,
          column: "Method / row",
          // biome-ignore lint/performance/useDomNodeTextContent: the words as shown
          text: (words as HTMLElement).innerText.trim(),
          cut: false,
          event: {
            cut: over(words) || b.right > window.innerWidth,
            title: words.getAttribute("title") ?? "",
          },
        });
        return;
      }
      [...tr.querySelectorAll("td")].forEach((td, i) => {
        const b = td.getBoundingClientRect();
        if (b.width === 0 || b.right > window.innerWidth || b.bottom > window.innerHeight) return;
        // the cell, its content and any badge in it (a badge clips its own words)
        const parts = [
          td,
          ...(td.firstElementChild ? [td.firstElementChild] : []),
          ...td.querySelectorAll(".badge"),
        ];
        out.push({
          row,
          column: names[i] ?? String(i),
          // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (a key chip's hidden full key left out)
          text: (td as HTMLElement).innerText.trim(),
          cut: parts.some(over),
        });
      });
    });
    return out;
  });
}

/** Fails unless every cut cell's tooltip has its whole text, and no Method, Verdict or header is cut. */
async function expectNothingCutSilently(page: Page, what: string) {
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const headers = await grid.locator("th").evaluateAll((ths) =>
    ths.map((th) => {
      const parts = [th, ...th.querySelectorAll("button")];
      return {
        name: th.getAttribute("aria-label") ?? "",
        cut: parts.some((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1),
        onScreen: th.getBoundingClientRect().right <= window.innerWidth,
      };
    }),
  );
  for (const h of headers.filter((x) => x.onScreen && x.name !== "Faults"))
    expect(h.cut, `${what}: the "${h.name}" header is whole`).toBe(false);

  const cells = await visibleCells(page);
  expect(cells.length, `${what}: cells on screen`).toBeGreaterThan(10);
  for (const c of cells) {
    if (c.event) {
      // past the window is cut with no way to read it; an ellipsis needs the whole words in its tooltip
      expect(
        c.event.cut && c.event.title === "",
        `${what}: the event "${c.text}" (row ${c.row}) is whole or has a tooltip`,
      ).toBe(false);
      continue;
    }
    if (c.column === "Method / row" || c.column === "Verdict / retry class")
      expect(c.cut, `${what}: the ${c.column} cell "${c.text}" (row ${c.row}) is not cut`).toBe(false);
    if (!c.cut) continue;
    const td = grid
      .locator("tbody tr")
      .nth(c.row)
      .locator("td")
      .nth(await columnIndex(page, c.column));
    await td.hover();
    const title = (await td.getAttribute("title")) ?? "";
    // the shown text up to its "…" (a key chip shows head…tail) is in the tooltip, which is longer
    const shown = c.text.split("…")[0]?.split("\n")[0]?.trim() ?? "";
    expect(title, `${what}: the cut ${c.column} cell "${c.text}" has a tooltip`).not.toBe("");
    expect(title, `${what}: the ${c.column} cell's tooltip has its whole text`).toContain(shown.slice(0, 8));
  }
}

async function columnIndex(page: Page, name: string): Promise<number> {
  return page
    .getByRole("treegrid", { name: "Timeline" })
    .evaluate(
      (t, n) => [...t.querySelectorAll("th")].findIndex((th) => th.getAttribute("aria-label") === n),
      name,
    );
}

/** Opens the newest submission row, so its attempts are scanned too. */
async function openLastSubmission(page: Page) {
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: "session/prompt" }).last();
  await row.click();
  await page.keyboard.press("ArrowRight");
  await expect(row).toHaveAttribute("aria-expanded", "true");
}

for (const [width, height] of [
  [1280, 720],
  [1600, 1000],
] as const) {
  for (const present of [false, true]) {
    test(`${present ? "presenter" : "normal"} mode at ${width}x${height}: no Timeline cell is cut silently in any scenario`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const problems = guardConsole(page);
      await page.goto(demoUrl(hubs.demo, present));
      await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
      await expectDemoReady(page);
      for (const title of SCENARIOS) {
        await playScenario(page, title);
        await openLastSubmission(page);
        await expectNothingCutSilently(page, `${title}, ${width}x${height}`);
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
}

test("an imported trace with long methods and verdicts (fs/read_text_file, retried-after-error, key-reused-different-prompt): they wrap, never cut", async ({
  browser,
}) => {
  for (const [width, height] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const problems = guardConsole(page);
    await page.goto(hubs.plain.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    const grid = await importSessionTrace(page);
    await expect(grid).toContainText("key-reused-different-prompt");
    await expectNothingCutSilently(page, `imported, ${width}x${height}`);
    expect(problems).toEqual([]);
    await context.close();
  }
});

test("at 1280x720 the fired notice covers no part of the Timeline and says when and on which tap", async ({
  browser,
}) => {
  for (const present of [false, true]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(demoUrl(hubs.demo, present));
    await expectDemoReady(page);
    // the crash scenario arms "kill the agent on the next session/prompt response"; it fires
    await playScenario(page, SCENARIOS[1]);
    const notice = page.locator("output.notice-line");
    await expect(notice).toContainText(/fired at \d\d:\d\d:\d\d on tap /);
    const n = await notice.locator(".notice").boundingBox();
    const table = await page.locator(".vtable").first().boundingBox();
    const filters = await page.getByRole("searchbox", { name: "Search" }).boundingBox();
    if (!n || !table || !filters) throw new Error("no box for the notice, the table or the search box");
    const overlaps = (a: typeof n, b: typeof n) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(n, table), `${present ? "presenter" : "normal"}: the notice is off the table`).toBe(
      false,
    );
    expect(overlaps(n, filters), "the notice is off the search box").toBe(false);
    // whole text in its tooltip, however it is wrapped
    expect(await notice.locator(".notice__text").getAttribute("title")).toMatch(/fired at .* on tap /);
    await context.close();
  }
});

test("at 1280x720 in normal mode the demo status is on screen without scrolling", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(demoUrl(hubs.demo));
  await expectDemoReady(page);
  for (const title of SCENARIOS) {
    await playScenario(page, title);
    const status = page.getByRole("status", { name: "Demo status" });
    await expect(status).toContainText(title);
    const s = await status.boundingBox();
    const panel = await page.getByRole("region", { name: "Demo client" }).boundingBox();
    if (!s || !panel) throw new Error("no box for the demo status");
    // inside the window and inside the part of its panel that is shown (the panel scrolls, the status need not)
    expect(s.y + s.height, `${title}: the status's bottom is inside the window`).toBeLessThanOrEqual(720);
    expect(s.y + s.height, `${title}: the status's bottom is inside its panel`).toBeLessThanOrEqual(
      panel.y + panel.height + 0.5,
    );
    expect(s.y).toBeGreaterThanOrEqual(panel.y - 0.5);
  }
  await context.close();
});

test("presenter mode at 1280 px: every shown column is inside the window; Latency and Waterfall are unticked and come back", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(demoUrl(hubs.demo, true));
  await expectDemoReady(page);
  await playScenario(page, SCENARIOS[2]);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const rights = await grid
    .locator("th")
    .evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().right));
  for (const r of rights) expect(r).toBeLessThanOrEqual(1280.5);
  await expect(grid.locator("th")).not.toContainText(["Waterfall"]);
  await page.getByRole("button", { name: /^Columns/ }).click();
  const menu = page.getByRole("group", { name: "Columns of the Timeline" });
  await expect(menu.getByRole("checkbox", { name: "Latency" })).not.toBeChecked();
  await expect(menu.getByRole("checkbox", { name: "Waterfall" })).not.toBeChecked();
  await menu.getByRole("checkbox", { name: "Waterfall" }).check();
  await expect(grid.locator('th[aria-label="Waterfall"]')).toHaveCount(1);
  await menu.getByRole("checkbox", { name: "Waterfall" }).uncheck();
  await expect(grid.locator('th[aria-label="Waterfall"]')).toHaveCount(0);
  // at 1600 px presenter mode shows them
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.getByRole("button", { name: "Reset widths, columns and sort" }).click();
  await page.reload();
  await expectDemoReady(page);
  await expect(
    page.getByRole("treegrid", { name: "Timeline" }).locator('th[aria-label="Latency"]'),
  ).toHaveCount(1);
  await context.close();
});
