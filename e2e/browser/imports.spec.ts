import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shownTrace } from "../harness/trace-picker.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "imports");
/** Screenshots go outside the repo, one per fixture and size. */

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

const CASES = [
  {
    file: "zed-copy-all.json",
    records: 12,
    rows: 5,
    banner:
      "Imported from Zed ACP log (Copy All); it has no timestamps: rows are in order, but times, durations and latencies are unknown; frames were rebuilt from parsed JSON, not the bytes on the wire.",
    prompt: "deploy the shop",
    verdict: "duplicate-insert: 1",
  },
  {
    file: "sacp-trace.jsons",
    records: 10,
    rows: 4,
    banner: "Imported from sacp/symposium trace (.jsons); its times count from the trace's start",
    prompt: "Hello",
    verdict: "deduplicated: 1",
  },
  {
    file: "acp-inspector.jsonl",
    records: 10,
    rows: 4,
    banner: "Imported from ACP-inspector recording (JSONL).",
    prompt: "run the migration",
    verdict: "retried-after-error: 1",
  },
  {
    file: "chrome-websocket.har",
    records: 16,
    rows: 6,
    banner: "Imported from HAR (browser network capture).",
    prompt: "publish the site",
    verdict: "deduplicated: 1",
  },
  {
    file: "streamable-http.har",
    records: 11,
    rows: 4,
    banner: "Imported from HAR (browser network capture); frames streamed in one HTTP response all carry",
    prompt: "bump the version",
    verdict: "duplicate-insert: 1",
  },
];

for (const c of CASES) {
  test(`imports ${c.file}: rows, verdict and a banner naming the source and what it lacks`, async ({
    page,
  }) => {
    const problems = guardConsole(page);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    await page.getByLabel("Import trace file").setInputFiles({
      name: c.file,
      mimeType: "application/octet-stream",
      buffer: readFileSync(join(FIXTURES, c.file)),
    });
    await expect(page.getByRole("status").filter({ hasText: `Import ${c.file}` })).toContainText(
      `${c.records} records`,
    );
    await expect(page.getByRole("note", { name: "Imported trace" })).toContainText(c.banner);
    const grid = page.getByRole("treegrid", { name: "Timeline" });
    await expect(grid.getByRole("row")).toHaveCount(c.rows);
    const submission = grid.getByRole("row").filter({ hasText: c.prompt });
    await expect(submission).toHaveCount(1);
    await expect(page.getByRole("list", { name: "Verdict counts" })).toContainText(c.verdict);
    // A file never shows a live agent or an open connection: only what it recorded.
    // (the agent words sit in the toolbar's status, the connections at the tab bar's right end)
    const status = page.getByRole("status", { name: "Connection" });
    const facts = page.getByRole("status", { name: "Trace facts" });
    await expect(status).not.toContainText("running");
    await expect(facts).not.toContainText(" open /");
    await expect(facts).toContainText(/connections \d+, (all closed|\d+ with no close recorded)/);
    // Open the submission: its attempts say when they were sent, or that the time is unknown.
    await submission.click();
    await page.keyboard.press("ArrowRight");
    await expect(submission).toHaveAttribute("aria-expanded", "true");
    const attempts = grid.getByRole("row").filter({ hasText: /^.*sent / });
    await expect(attempts).toHaveCount(2);
    if (c.file === "zed-copy-all.json") {
      await expect(attempts.first()).toContainText("sent time unknown");
      await expect(attempts.first()).not.toContainText(/\d+ ms/);
      // No invented start either: the picker says there is none.
      await expect(shownTrace(page)).toHaveAccessibleName(/, started no start time$/);
    } else {
      // The last attempt was answered: its latency is measured from the source's times.
      await expect(attempts.last()).toContainText(/sent \d\d:\d\d:\d\d\.\d{3}, \d+ ms/);
    }
    const stem = c.file.replace(/\.[a-z]+$/, "");
    await page.screenshot({ path: test.info().outputPath(`${stem}-1280x720.png`) });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await expect(page.getByRole("note", { name: "Imported trace" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`${stem}-1600x1000.png`) });
    expect(problems).toEqual([]);
  });
}

test("a Zed log's Records tab shows no clock times, and junk is refused with the formats it reads", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "zed-copy-all.json",
    mimeType: "application/json",
    buffer: readFileSync(join(FIXTURES, "zed-copy-all.json")),
  });
  await expect(page.getByRole("note", { name: "Imported trace" })).toBeVisible();
  await page.getByRole("tab", { name: "Records" }).click();
  const records = page.getByRole("grid").or(page.getByRole("table")).first();
  await expect(records.getByRole("row").nth(1)).toContainText("unknown");
  await expect(records).not.toContainText(/\d\d:\d\d:\d\d\.\d{3}/);
  await page.screenshot({ path: test.info().outputPath(`zed-records-1280x720.png`) });
  // The sequence view's gutter gives no time since the start either.
  await page.getByRole("tab", { name: "Sequence" }).click();
  const diagram = page.getByRole("region", { name: "Sequence diagram" });
  await expect(diagram).toContainText("time unknown");
  await expect(diagram).not.toContainText(/\+\d+\.\d{3} s/);
  await page.screenshot({ path: test.info().outputPath(`zed-sequence-1280x720.png`) });

  await page.getByLabel("Import trace file").setInputFiles({
    name: "capture.har",
    mimeType: "application/json",
    buffer: Buffer.from("[1, 2, 3]"),
  });
  await expect(page.getByRole("status").filter({ hasText: "Import capture.har" })).toContainText(
    "capture.har is not a trace file or a supported import: a JSON array that is not a Zed ACP log",
  );
  await page.screenshot({ path: test.info().outputPath(`junk-refused-1280x720.png`) });
  expect(problems.filter((p) => !p.includes("not a trace file"))).toEqual([]);
});
