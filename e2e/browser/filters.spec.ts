/**
 * The one filter of the Timeline, Records and Sequence views, on the built app against a real
 * `serve`: the query syntax narrows all three the same way, negation works, an unknown field is
 * reported in words, the shortcuts edit the query text, suggestions complete it, Sequence shows
 * only the matching rows and jumps to a submission, and showing another trace clears the filter.
 */
import { expect, type Page, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { filterShortcut } from "../harness/timeline-filters.js";
import { sessionTrace } from "../harness/traces.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

async function importTrace(page: Page, name: string, jsonl: string, records: number) {
  await page.getByLabel("Import trace file").setInputFiles({
    name,
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(jsonl),
  });
  await expect(page.getByRole("status").filter({ hasText: `Import ${name}` })).toContainText(
    `${records} records`,
  );
}

async function open(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await importTrace(page, "session.jsonl", sessionTrace().jsonl(), 30);
}

const timelineSearch = (page: Page) =>
  page.getByRole("search", { name: "Timeline filters" }).getByRole("searchbox", { name: "Search" });
const tab = (page: Page, name: string) => page.getByRole("tab", { name }).click();

/** 200 keyed submissions, one prompt and one answer each, the 150th retried once. */
function manySubmissions(): TraceScript {
  const sc = new TraceScript().open(1);
  sc.request(1, "client->agent", 0, "initialize", { protocolVersion: 2 }).result(1, "agent->client", 0, {
    protocolVersion: 2,
  });
  for (let i = 1; i <= 200; i++) {
    const key = `key-${String(i).padStart(4, "0")}`;
    sc.prompt(1, i, "sess-1", `task number ${i}`, key).inserted(1, i, `msg-${i}`);
  }
  sc.prompt(1, 1000, "sess-1", "task number 150", "key-0150").inserted(1, 1000, "msg-150");
  return sc;
}

test("one query narrows the Timeline, Records and Sequence alike; negation and unknown fields", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await open(page);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const rows = grid.getByRole("row");
  await expect(rows).toHaveCount(10);

  // The hostile-prompt submission is the only `single` one: 4 keyed submissions are left.
  await timelineSearch(page).fill("method:session/prompt -verdict:single");
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: "key-host" })).toHaveCount(0);
  await expect(rows.filter({ hasText: "duplicate-insert" })).toHaveCount(1);
  await expect(page.getByRole("status", { name: "Rows hidden by filters" })).toContainText(
    "5 rows hidden by filters",
  );
  await page.screenshot({ path: testInfo.outputPath("timeline-filtered.png") });

  // Records: the same query (one filter), the frames of exactly those 4 submissions: 4 × 4 frames.
  await tab(page, "Records");
  const records = page.getByRole("search", { name: "Records filter" });
  await expect(records.getByRole("searchbox", { name: "Search" })).toHaveValue(
    "method:session/prompt -verdict:single",
  );
  await expect(page.getByRole("status", { name: "Records shown" })).toHaveText("16 of 30 records match");
  const recordRows = page.getByRole("grid", { name: "Trace records" }).getByRole("row");
  await expect(recordRows).toHaveCount(17);
  await expect(recordRows.filter({ hasText: "key-hostile" })).toHaveCount(0);
  await expect(recordRows.filter({ hasText: "initialize" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("records-filtered.png") });

  // Sequence: the 16 arrows match; "Only matching rows" draws just them.
  await tab(page, "Sequence");
  const seq = page.getByRole("region", { name: "Sequence diagram" });
  await expect(seq.getByRole("searchbox", { name: "Search" })).toHaveValue(
    "method:session/prompt -verdict:single",
  );
  await expect(seq.getByRole("status", { name: "Sequence matches" })).toHaveText(/^16 of \d+ rows match$/);
  await seq.getByLabel("Only matching rows").check();
  await expect(seq.getByRole("status", { name: "Sequence matches" })).toHaveText(
    /^only the 16 matching rows of \d+$/,
  );
  const frames = seq.getByRole("group", { name: "Frames" });
  // An import opens on its worst submission (the duplicate insert, frames #19 to #21), so the drawing shows it.
  await expect(frames.getByRole("button", { name: /, frame #20,/ })).toBeVisible();
  await expect(frames.getByRole("button", { name: /, frame #26,/ })).toHaveCount(0);
  await expect(frames.getByRole("separator")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("sequence-only-matches.png") });

  // Negation the other way round, typed in the Sequence's box: only the hostile one is left everywhere.
  await seq.getByRole("searchbox", { name: "Search" }).fill("method:session/prompt verdict:single");
  await expect(seq.getByRole("status", { name: "Sequence matches" })).toHaveText(
    /^only the 2 matching rows of \d+$/,
  );
  await expect(frames.getByRole("button", { name: /, frame #26,/ })).toBeVisible();
  await tab(page, "Records");
  await expect(page.getByRole("status", { name: "Records shown" })).toHaveText("2 of 30 records match");
  await tab(page, "Timeline");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("single");

  // An unknown field is said in words where the query is typed, and searched as text.
  await timelineSearch(page).fill("verdit:single");
  const said = page
    .getByRole("search", { name: "Timeline filters" })
    .getByRole("list", { name: "Filter problems" });
  await expect(said).toContainText("“verdit” is not a filter field (did you mean verdict?)");
  await expect(said).toContainText("searching for the text “verdit:single” instead");
  await expect(timelineSearch(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("heading", { name: "No row matches the filters" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("unknown-field.png") });
  await tab(page, "Records");
  await expect(
    page.getByRole("search", { name: "Records filter" }).getByRole("list", { name: "Filter problems" }),
  ).toContainText("is not a filter field");
  await page
    .getByRole("search", { name: "Records filter" })
    .getByRole("button", { name: "Clear filters" })
    .click();
  await expect(page.getByRole("status", { name: "Records shown" })).toHaveText("30 records");
  expect(problems).toEqual([]);
});

test("the shortcuts and suggestions edit the one query text; another trace clears it", async ({ page }) => {
  const problems = guardConsole(page);
  await open(page);
  const rows = page.getByRole("treegrid", { name: "Timeline" }).getByRole("row");
  const filters = page.getByRole("search", { name: "Timeline filters" });
  const search = timelineSearch(page);

  await search.fill("haiku");
  await (await filterShortcut(page, "Outcome")).selectOption("dropped");
  await expect(search).toHaveValue("haiku outcome:dropped");
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "duplicate-insert: 1" }).click();
  await expect(search).toHaveValue("haiku outcome:dropped verdict:duplicate-insert");
  await expect(page.getByRole("heading", { name: "No row matches the filters" })).toBeVisible();
  // A field typed in the box shows in its dropdown.
  await search.fill("outcome:error");
  await expect(await filterShortcut(page, "Outcome")).toHaveValue("error");
  await expect(rows).toHaveCount(2);

  // Suggestions: field names, then the trace's values; Enter takes the highlighted one.
  await search.fill("");
  await search.pressSequentially("ver");
  const options = filters.getByRole("listbox", { name: "Suggestions" }).getByRole("option");
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText("verdict:");
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(search).toHaveValue("verdict:");
  await search.pressSequentially("ded");
  await expect(options.first()).toContainText("verdict:deduplicated");
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(search).toHaveValue("verdict:deduplicated ");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("deduplicated");
  await search.pressSequentially("method:fs");
  await expect(options.first()).toContainText("method:fs/read_text_file");

  // Showing another trace clears the filter, for every view.
  await importTrace(page, "many.jsonl", manySubmissions().jsonl(), 405);
  await expect(search).toHaveValue("");
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toHaveAttribute("aria-rowcount", "202");
  expect(problems).toEqual([]);
});

test("Sequence jumps to a submission, scrolled into view and selected, also in the Timeline", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await importTrace(page, "many.jsonl", manySubmissions().jsonl(), 405);
  await tab(page, "Sequence");
  const seq = page.getByRole("region", { name: "Sequence diagram" });
  const frames = seq.getByRole("group", { name: "Frames" });
  // submission 150: its first request is frame #302 (open, initialize ×2, then 2 frames per submission)
  const target = frames.getByRole("button", { name: /^request session\/prompt .*, frame #302,/ });
  await expect(target).toHaveCount(0);
  const picker = seq.getByLabel("Jump to submission");
  const option = picker.locator("option", {
    hasText: /^submission 150 · key key-0150 · 2 attempts · task number 150$/,
  });
  await picker.selectOption((await option.getAttribute("value")) ?? "");
  await expect(target).toBeInViewport();
  await expect(target).toHaveAttribute("aria-pressed", "true");
  await expect(seq.getByRole("status").filter({ hasText: "Submission 150: frame #302" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("sequence-jump.png") });

  // The jump selected the submission itself (its Timeline row), so Details shows it, not just a frame.
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("task number 150");
  await expect(details).toContainText("Submission: session/prompt");
  await tab(page, "Timeline");
  const timeline = page.getByRole("treegrid", { name: "Timeline" });
  await expect(timeline).toHaveAttribute("aria-activedescendant", /^vrow-s\d+$/);
  // ...and the Timeline, which otherwise opens at its newest rows (submission 200), shows that row.
  const jumped = timeline.locator(`[id="${await timeline.getAttribute("aria-activedescendant")}"]`);
  await expect(jumped).toContainText("task number 150");
  await expect(jumped).toHaveAttribute("aria-selected", "true");
  // Wholly in view from top to bottom: its Method cell (the row itself is wider than the pane).
  await expect(jumped.locator("td").nth(1)).toBeInViewport({ ratio: 1 });
  await expect(timeline.getByRole("row").filter({ hasText: "task number 200" })).toHaveCount(0);
  await tab(page, "Sequence");

  // The filter narrows the picker, and Next match steps through the matches.
  const seqSearch = seq.getByRole("searchbox", { name: "Search" });
  await seqSearch.fill("key:0199");
  // the suggestion (key:key-0199) drops over the row below; Escape closes it and keeps the text
  await expect(seq.getByRole("listbox", { name: "Suggestions" })).toContainText("key:key-0199");
  await seqSearch.press("Escape");
  await expect(seq.getByRole("listbox", { name: "Suggestions" })).toHaveCount(0);
  await expect(seqSearch).toHaveValue("key:0199");
  await expect(seq.getByLabel("Jump to submission").locator("option")).toHaveCount(2);
  await expect(seq.getByRole("status", { name: "Sequence matches" })).toHaveText(/^2 of \d+ rows match$/);
  await seq.getByRole("button", { name: "Next match" }).click();
  await expect(frames.getByRole("button", { name: /, frame #400,/ })).toBeInViewport();
  await expect(seq.getByRole("status").filter({ hasText: /^Match 1 of 2$/ })).toBeVisible();
  expect(problems).toEqual([]);
});
