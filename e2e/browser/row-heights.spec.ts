/**
 * The Timeline's row heights in Chromium against a real `serve`: an attempt whose Result words need
 * two lines at the Result column's width is a two-line row, its words on two lines and not cut; when
 * the column is widened until they fit on one line, the row is one line tall again and the rows
 * below move up to it (VirtualTable re-measures its rows when the heights change with the same rows).
 * Also, at 1280x720 (two-line headers): a row the keyboard scrolls to is never under the sticky
 * header, and a method too long for its column breaks after its "/", not inside a word.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { writeBenchTrace } from "../../electron/tools/bench/bench-trace.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { lostAnswerRetryTrace } from "../harness/traces.js";

/** With `TIMELINE_SHOTS_DIR`: screenshots of the two-line row at 1280x720 and 1600x1000 go there. */
const SHOTS = process.env.TIMELINE_SHOTS_DIR;

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000, []);
});
test.afterAll(async () => {
  await hub?.stop();
});

async function importTrace(page: Page): Promise<Locator> {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "heights.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(lostAnswerRetryTrace().jsonl()),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import heights.jsonl" })).toContainText("records");
  return page.getByRole("treegrid", { name: "Timeline" });
}

/** The row's box, and the top of the row below it. */
async function rowBoxes(row: Locator) {
  return row.evaluate((tr) => {
    const box = tr.getBoundingClientRect();
    const next = tr.nextElementSibling?.getBoundingClientRect();
    return { top: box.top, height: box.height, nextTop: next?.top };
  });
}

test("a Result that needs two lines makes a two-line row; widened to fit one line, the row and those below follow", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  const problems = guardConsole(page);
  const grid = await importTrace(page);
  const submission = grid.getByRole("row").filter({ hasText: "session/prompt" }).first();
  await submission.click();
  await page.keyboard.press("ArrowRight");
  await expect(submission).toHaveAttribute("aria-expanded", "true");
  const dropped = grid.getByRole("row").filter({ hasText: "answer dropped by the inspector" });
  await expect(dropped).toHaveCount(1);

  // Two lines at the default width: taller than a one-line row, its words on two lines, none cut.
  await expect(dropped).toHaveClass(/vtable__row--tall/);
  // a one-line row to compare with (a submission row is two lines: its result over its key group)
  const one = (await rowBoxes(grid.getByRole("row").filter({ hasText: "initialize" }).first())).height;
  const tall = await rowBoxes(dropped);
  expect(tall.height).toBeGreaterThan(one * 1.4);
  expect(tall.nextTop).toBeCloseTo(tall.top + tall.height, 0);
  const chip = dropped.locator(".badge").first();
  const lines = await chip.evaluate((el) => {
    const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
    return {
      lines: Math.round(el.clientHeight / lineHeight),
      cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
    };
  });
  expect(lines).toEqual({ lines: 2, cut: false });
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/row-heights-1600x1000.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
    await expect(dropped).toHaveClass(/vtable__row--tall/);
    await page.screenshot({ path: `${SHOTS}/row-heights-1280x720.png` });
    await page.setViewportSize({ width: 1600, height: 1000 });
  }

  // Widen the Result column (keyboard, 50 px a press) until the words fit on one line.
  const handle = grid.getByRole("separator", { name: "Resize Result column" });
  await handle.focus();
  const from = Number(await handle.getAttribute("aria-valuenow"));
  for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+ArrowRight");
  await expect(handle).toHaveAttribute("aria-valuenow", String(from + 400));
  await expect(dropped).not.toHaveClass(/vtable__row--tall/);
  const after = await rowBoxes(dropped);
  expect(after.height).toBeCloseTo(one, 0);
  // the rows below moved up: the virtualizer measured the rows again, not only this row's style
  expect(after.nextTop).toBeCloseTo(after.top + after.height, 0);
  expect(problems).toEqual([]);
});

test("at 1280x720 a long method breaks after its slash, and a row the keyboard moves to is never under the sticky header", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = guardConsole(page);
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-rows-"));
  try {
    const file = join(dir, "many.jsonl");
    await writeBenchTrace(file, 3_000);
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    await page.getByLabel("Import trace file").setInputFiles(file);
    await expect(page.getByRole("status").filter({ hasText: "Import many.jsonl" })).toContainText("records");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  // A method too long for the column breaks after its "/", never inside a word ("fil" over "e").
  const method = grid.locator(".tl-what").filter({ hasText: "fs/read_text_file" }).first();
  const lines = await method.evaluate((el) => {
    const words = [...el.childNodes].find((n) => n.textContent === "read_text_file");
    if (!words) return { lines: -1, rects: -1 };
    const range = document.createRange();
    range.selectNodeContents(words);
    const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
    return { lines: Math.round(el.clientHeight / lineHeight), rects: range.getClientRects().length };
  });
  expect(lines, "two lines, and read_text_file whole on the second").toEqual({ lines: 2, rects: 1 });
  const head = grid.locator("thead");
  const headHeight = (await head.boundingBox())?.height ?? 0;
  await grid.getByRole("row").nth(1).click();
  await page.keyboard.press("End");
  for (let i = 0; i < 40; i++) await page.keyboard.press("ArrowUp");
  const selected = grid.locator('[aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  const headBottom = ((await head.boundingBox())?.y ?? 0) + headHeight;
  const top = (await selected.boundingBox())?.y ?? 0;
  expect(top, "the selected row's top against the header's bottom").toBeGreaterThanOrEqual(headBottom - 1);
  // and moving down again to past the view's end keeps the row inside the view
  for (let i = 0; i < 40; i++) await page.keyboard.press("ArrowDown");
  const view = await grid.locator("xpath=..").boundingBox();
  const box = await selected.boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual((view?.y ?? 0) + (view?.height ?? 0) + 1);
  expect(problems).toEqual([]);
});
