/**
 * Presenter mode in Chromium against a real `serve --demo`: for each of the four scenarios, at
 * 1280x720 and 1600x1000, light and dark, the caption's claim and the Timeline rows that prove it
 * (the submission, its verdict, each attempt's outcome words) are all inside the window without
 * scrolling: measured with bounding boxes against the viewport, not only `toBeVisible`. Also: the
 * toggle and `?present` (the token stays in the fragment), the caption beside the Sequence view,
 * Large text scaling the Sequence SVG, the stderr panel collapsed while empty, and the split handle
 * by pointer and keyboard, remembered across a reload.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { demoUrl, expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";

/** The story each scenario tells, as the Timeline must show it. */
const STORIES = [
  {
    id: "lost-response",
    title: "Lost response, then a keyed retry",
    prompt: "Deploy the site",
    verdict: "deduplicated",
    claim: "Verdict deduplicated",
    attempts: 2,
  },
  {
    id: "crash-restart",
    title: "Agent crash, restart, resume, retry",
    prompt: "Deploy the site",
    verdict: "deduplicated",
    claim: "Verdict deduplicated",
    attempts: 2,
  },
  {
    id: "held-cancel",
    title: "Retry while held, then cancel",
    prompt: "Deploy to production",
    verdict: "withdrawn",
    claim: "withdrawn",
    attempts: 2,
  },
  {
    id: "naive",
    title: "The same story against a naive agent",
    prompt: "Deploy the site",
    verdict: "duplicate-insert",
    claim: "Verdict duplicate-insert",
    attempts: 2,
  },
] as const;

const hubs = startDemoHubs();

/**
 * Fails unless the element's whole box lies inside the viewport (nothing to scroll to see it) and
 * it is on top there (not under a sticky header, the stderr line or a band beside it).
 */
async function expectOnScreen(page: Page, what: string, locator: Locator) {
  const box = await locator.boundingBox();
  const view = page.viewportSize();
  expect(box, `${what} has a box`).not.toBeNull();
  if (!box || !view) return;
  expect(box.width, `${what} has a width`).toBeGreaterThan(0);
  expect(box.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what} top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right edge within ${view.width}`).toBeLessThanOrEqual(view.width + 0.5);
  expect(box.y + box.height, `${what} bottom edge within ${view.height}`).toBeLessThanOrEqual(
    view.height + 0.5,
  );
  expect(await drawnOver(locator, "lines"), `${what}: what is drawn over its first and last lines`).toEqual(
    [],
  );
}

/**
 * What the page draws on top of the element at some of its points, other than the element itself
 * (the start of each, as HTML): `lines`, the centre of its first and last line boxes (an inline
 * element's box spans lines it is not on); `corners`, three corners 2 px in; `centre`, its centre.
 */
async function drawnOver(locator: Locator, where: "lines" | "corners" | "centre"): Promise<string[]> {
  return locator.evaluate((el, at) => {
    const box = el.getBoundingClientRect();
    const lines = [...el.getClientRects()];
    const centre = (r: DOMRect | undefined) => (r ? [[r.left + r.width / 2, r.top + r.height / 2]] : []);
    const points =
      at === "lines"
        ? [...centre(lines[0]), ...centre(lines[lines.length - 1])]
        : at === "corners"
          ? [
              [box.left + 2, box.top + 2],
              [box.right - 2, box.top + 2],
              [box.left + 2, box.bottom - 2],
            ]
          : centre(box);
    return points
      .map(([x, y]) => document.elementFromPoint(x as number, y as number))
      .filter((hit) => hit === null || !el.contains(hit))
      .map((hit) => hit?.outerHTML.slice(0, 80) ?? "nothing");
  }, where);
}

/** No element of the page scrolls: the document, and every box with overflow, shows all it holds. */
async function scrolledAnywhere(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [document.scrollingElement, ...document.querySelectorAll("*")]
      .filter((el): el is Element => el !== null && (el.scrollTop > 0 || el.scrollLeft > 0))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );
}

async function openPresenter(page: Page) {
  await page.goto(demoUrl(hubs.demo, true));
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expectDemoReady(page);
  await expect(page.getByRole("button", { name: "Present" })).toHaveAttribute("aria-pressed", "true");
}

test.describe.configure({ timeout: 150_000 });

// With Large text at 1280x720 the Timeline has room for the submission and its attempts, not for
// every row of every story: there it may scroll itself to the opened submission (the table's own
// scroller; nothing else scrolls), and the rows the checks below name must still be on screen.
for (const [width, height, large] of [
  [1280, 720, false],
  [1600, 1000, false],
  [1280, 720, true],
] as const) {
  for (const colorScheme of ["light", "dark"] as const) {
    const text = large ? ", Large text" : "";
    const suffix = `${width}x${height}-${colorScheme}${large ? "-large-text" : ""}`;
    test(`presenter mode at ${width}x${height}, ${colorScheme}${text}: each scenario's claim is on screen in the Timeline`, async ({
      browser,
    }, testInfo) => {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const problems = guardConsole(page);
      await openPresenter(page);
      await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
      if (large) {
        await page.getByRole("button", { name: "Large text" }).click();
        await expect(page.locator("html")).toHaveAttribute("data-text", "large");
      }
      // the fault drawer is closed in presenter mode; the toolbar is one row
      await expect(page.getByRole("button", { name: "Faults", exact: true })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
      const bar = await page.locator("header.toolbar").boundingBox();
      expect(bar?.height ?? 999).toBeLessThan(60);

      for (const [i, story] of STORIES.entries()) {
        const caption = await playScenario(page, story.title);
        await expect(caption).toContainText(story.claim);
        // the scenario before's notice ("… fired at … on tap <its title> (demo)") went with it
        // (read once: a retried check would wait out the notice's 10 s)
        if (i > 0)
          expect(await page.locator(".notice-line").textContent()).not.toContain(
            `on tap ${STORIES[i - 1]!.title}`,
          );
        await expectOnScreen(page, `${story.id}: caption`, caption);
        if (i === 0) {
          // the lifecycle toggle and the column menu sit at the end of the filter bar's one row
          const filters = page.getByRole("search", { name: "Timeline filters" });
          const bar = await filters.boundingBox();
          for (const control of [
            filters.getByRole("checkbox", { name: "Lifecycle events" }),
            filters.getByRole("button", { name: /^Columns/ }),
            filters.getByRole("searchbox", { name: "Search" }),
          ]) {
            await expectOnScreen(
              page,
              `${await control.getAttribute("aria-label")}: in the filter bar`,
              control,
            );
            const box = await control.boundingBox();
            expect(box && bar ? box.y + box.height : 999, "one row").toBeLessThanOrEqual(
              (bar?.y ?? 0) + (bar?.height ?? 0),
            );
          }
          expect(bar?.height ?? 999, "the filter bar is one row").toBeLessThan(large ? 64 : 50);
        }
        await expectOnScreen(
          page,
          `${story.id}: the caption's claim`,
          caption.locator(".scenario-caption__expectation"),
        );

        const grid = page.getByRole("treegrid", { name: "Timeline" });
        const row = grid.getByRole("row").filter({ hasText: story.prompt }).first();
        await expect(row).toContainText(story.verdict);
        await expectOnScreen(page, `${story.id}: the submission row's prompt`, row.getByText(story.prompt));
        const verdictCell = row.getByRole("gridcell").filter({ hasText: story.verdict }).first();
        await expectOnScreen(page, `${story.id}: the verdict`, verdictCell);
        // whole: not cut, so no ellipsis sits beside it
        expect(
          await verdictCell.evaluate((td) => td.scrollWidth <= td.clientWidth + 1),
          `${story.id}: the verdict cell is not cut`,
        ).toBe(true);
        // the attempts, opened, each with its outcome words in the Result column
        await row.click();
        await page.keyboard.press("ArrowRight");
        await expect(row).toHaveAttribute("aria-expanded", "true");
        const attempts = grid.getByRole("row").filter({ hasText: /^.*attempt \d/ });
        await expect(attempts).toHaveCount(story.attempts);
        const column = await grid.evaluate((t) =>
          [...t.querySelectorAll("th")].findIndex((th) => th.getAttribute("aria-label") === "Result"),
        );
        // the submission's row is still on screen with its attempts open (opening reveals the group
        // below the row, the row kept in view)
        await expectOnScreen(page, `${story.id}: the opened row's prompt`, row.getByText(story.prompt));
        await expectOnScreen(page, `${story.id}: the opened row's verdict`, verdictCell);
        // An open group shows what happened between its attempts (the crash story's kill, exit,
        // reconnect and resume: seven rows); at 1280x720 that group is taller than the table, whose
        // own rows then scroll to its last attempt.
        const tallGroup = large || (story.id === "crash-restart" && height < 1000);
        for (let i = 0; i < story.attempts; i++) {
          // the Result column's cell (after the fault menu and Method / row)
          const result = attempts.nth(i).getByRole("gridcell").nth(column);
          await expect(result).toHaveText(/\w{3,}/);
          if (tallGroup) await result.scrollIntoViewIfNeeded();
          await expectOnScreen(page, `${story.id}: attempt ${i + 1}'s outcome`, result);
        }
        const scrolled = await scrolledAnywhere(page);
        expect(
          tallGroup ? scrolled.filter((el) => el !== "div.vtable") : scrolled,
          `${story.id}: nothing is scrolled${tallGroup ? " but the Timeline's rows" : ""}`,
        ).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`presenter-${story.id}-${suffix}.png`) });
        // close the row again so the next story starts from the same view
        await page.keyboard.press("ArrowLeft");
        await page.keyboard.press("Escape");
      }

      // on the Sequence tab the caption sits beside the diagram
      await page.getByRole("tab", { name: "Sequence" }).click();
      const diagram = page.getByRole("region", { name: "Sequence diagram" });
      const caption = page.getByRole("region", { name: "Scenario caption" });
      await expect(diagram.getByRole("group", { name: "Frames" })).toBeVisible();
      await expectOnScreen(page, "caption beside the Sequence view", caption);
      const d = await diagram.boundingBox();
      const c = await caption.boundingBox();
      expect(c && d ? c.x : 0).toBeGreaterThanOrEqual((d?.x ?? 0) + (d?.width ?? 0) - 1);
      expect(c && d ? c.y : 999).toBeLessThan((d?.y ?? 0) + (d?.height ?? 0));
      await page.screenshot({ path: testInfo.outputPath(`presenter-sequence-${suffix}.png`) });
      expect(problems).toEqual([]);
      await context.close();
    });
  }
}

test("the Present toggle and ?present: a query flag, the token stays out of the query, a reload keeps the mode", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.goto(hubs.demo.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const present = page.getByRole("button", { name: "Present" });
  await expect(present).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("html")).toHaveAttribute("data-present", "off");
  await present.click();
  await expect(present).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("html")).toHaveAttribute("data-present", "on");
  const url = new URL(page.url());
  expect(url.search).toBe("?present");
  expect(url.search).not.toContain(hubs.demo.token);
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expect(page.getByRole("button", { name: "Present" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Present" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-present", "off");
  expect(new URL(page.url()).search).toBe("");
  // a link with both, as a presenter would paste it
  await page.goto(demoUrl(hubs.demo, true));
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expect(page.locator("html")).toHaveAttribute("data-present", "on");
  expect(problems).toEqual([]);
});

test("Large text scales the Sequence SVG too (scrolling inside its pane, never over the caption), and the stderr panel is one line while empty", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPresenter(page);
  await playScenario(page, STORIES[0].title);
  const stderr = page.getByRole("region", { name: "Agent stderr" });
  await expect(stderr).toContainText("Nothing yet");
  expect((await stderr.boundingBox())?.height ?? 999).toBeLessThan(40);

  await page.getByRole("tab", { name: "Sequence" }).click();
  const lanes = page.getByRole("img", { name: "Lanes: Client, Inspector, Agent" });
  const frames = page.getByRole("group", { name: "Frames" });
  await expect(frames).toBeVisible();
  const arrow = frames.getByRole("button").first();
  const normal = { lanes: await lanes.boundingBox(), arrow: await arrow.boundingBox() };
  const fontNormal = await page.evaluate(() => getComputedStyle(document.body).fontSize);
  await page.getByRole("button", { name: "Large text" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-text", "large");
  await expect
    .poll(async () => (await lanes.boundingBox())?.height ?? 0)
    .toBeGreaterThan((normal.lanes?.height ?? 0) * 1.25);
  const large = await frames.getByRole("button").first().boundingBox();
  expect(large?.height ?? 0).toBeGreaterThan((normal.arrow?.height ?? 0) * 1.25);
  const fontLarge = await page.evaluate(() => getComputedStyle(document.body).fontSize);
  expect(Number.parseFloat(fontLarge)).toBeGreaterThan(Number.parseFloat(fontNormal) * 1.25);
  // the diagram, now wider than its pane, scrolls inside it: nothing of it paints over the caption
  // beside it, and the lane titles scroll sideways with the arrows
  const caption = page.getByRole("region", { name: "Scenario caption" });
  expect(
    await drawnOver(caption.locator(".scenario-caption__rfd"), "corners"),
    "elements over the caption's RFD quote",
  ).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("presenter-sequence-large-text-1280x720-light.png") });
  const scroller = page.locator(".seq__scroll");
  const wider = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(wider, "the diagram is wider than its pane with large text").toBeGreaterThan(20);
  await scroller.evaluate((el) => {
    el.scrollLeft = 20;
  });
  await expect
    .poll(() => page.locator(".seq__lanes-strip").evaluate((el) => el.scrollLeft))
    .toBe(await scroller.evaluate((el) => el.scrollLeft));

  // the toolbar stays one row with large text (labels beside icons are read, not shown), every
  // control inside the window, each still named
  const toolbar = page.locator("header.toolbar");
  expect((await toolbar.boundingBox())?.height ?? 999).toBeLessThan(60);
  for (const control of await toolbar.locator("button, input, select").all()) {
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    expect(box ? box.x + box.width : 9999, `${await control.getAttribute("aria-label")}`).toBeLessThanOrEqual(
      1280.5,
    );
  }
  for (const name of ["Follow newest", "Present", "Large text", "Dark theme"])
    await expect(toolbar.getByRole("button", { name, exact: true })).toBeVisible();
  await expect(toolbar.getByRole("button", { name: "Faults", exact: true })).toBeVisible();
  // on the Timeline the squeezed view runs under the stderr line: nothing is drawn over it
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toBeVisible();
  expect(await drawnOver(stderr, "centre"), "the stderr line is on top where it is drawn").toEqual([]);
  await page.getByRole("button", { name: "Large text" }).click();
});

test("the side column resizes by pointer and by keyboard, and keeps its width across a reload", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(hubs.demo.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const handle = page.getByRole("separator", { name: "Resize the details pane" });
  const details = page.getByRole("region", { name: "Details" });
  const start = Number(await handle.getAttribute("aria-valuenow"));
  const before = (await details.boundingBox())?.width ?? 0;

  await handle.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(handle).toHaveAttribute("aria-valuenow", String(start + 20));
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(handle).toHaveAttribute("aria-valuenow", String(start + 100));
  expect((await details.boundingBox())?.width ?? 0).toBeGreaterThan(before + 90);

  const box = await handle.boundingBox();
  if (!box) throw new Error("the handle has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 150, box.y + 200, { steps: 5 });
  await page.mouse.up();
  const dragged = Number(await handle.getAttribute("aria-valuenow"));
  expect(dragged).toBeGreaterThan(start + 100 - 160);
  expect(dragged).toBeLessThan(start + 100 - 140);

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await expect(page.getByRole("separator", { name: "Resize the details pane" })).toHaveAttribute(
    "aria-valuenow",
    String(dragged),
  );
  await page.getByRole("separator", { name: "Resize the details pane" }).focus();
  await page.keyboard.press("Home");
  await expect(page.getByRole("separator", { name: "Resize the details pane" })).toHaveAttribute(
    "aria-valuenow",
    "260",
  );
});

test("at 1280x720 in presenter mode the toolbar stays one row after the shown trace's agent exited", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = guardConsole(page);
  await openPresenter(page);
  // Two scenarios, then the first one's trace again: its tap was torn down, its agent exited.
  await playScenario(page, STORIES[0].title);
  await playScenario(page, STORIES[2].title);
  await page.getByRole("button", { name: /^Shown trace/ }).click();
  await page.getByRole("option").filter({ hasText: STORIES[0].title }).first().click();
  // the caption and the demo's status are about the demo's own trace, and say so beside another one
  await expect(page.getByRole("region", { name: "Scenario caption" }).getByRole("note")).toContainText(
    "The views show another trace",
  );
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText(
    "the views show another trace than the demo's",
  );
  const agent = page.locator(".toolbar__agent");
  await expect(agent).toHaveText(/^agent pid \d+ (exited \(|: no exit recorded)/);
  // the words may be cut on screen; their tooltip has them whole
  expect(await agent.getAttribute("title")).toBe(await agent.textContent());

  const bar = page.locator("header.toolbar");
  const parts = await bar.evaluate((el) =>
    [...el.children]
      .filter((c) => getComputedStyle(c).position !== "fixed" && !c.classList.contains("toolbar__spacer"))
      .map((c) => {
        const b = c.getBoundingClientRect();
        return { name: c.className, top: b.top, bottom: b.bottom, right: b.right };
      }),
  );
  expect(parts.length).toBeGreaterThan(5);
  const rowHeight = Math.max(...parts.map((p) => p.bottom - p.top));
  const box = await bar.boundingBox();
  // one row: every part beside every other (their heights overlap), the bar no taller than one part and its padding
  const firstBottom = Math.min(...parts.map((p) => p.bottom));
  for (const p of parts) {
    expect(p.top, `${p.name} is on the toolbar's one row`).toBeLessThan(firstBottom - 1);
    expect(p.right, `${p.name} is inside the window`).toBeLessThanOrEqual(1280.5);
  }
  expect(box?.height ?? 999, "the toolbar is one row high").toBeLessThan(rowHeight * 1.5);
  await page.screenshot({ path: testInfo.outputPath("presenter-toolbar-agent-exited-1280x720.png") });
  expect(problems).toEqual([]);
  await context.close();
});
