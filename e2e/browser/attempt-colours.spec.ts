/**
 * Issue 30 item 3: an attempt's colour and icon speak about the Agent and the RFD, read from the
 * analyzer's `tone`. In the naive story the attempt that inserted the duplicate is a red ✗; in the
 * correct story the attempt whose answer the inspector dropped (the Agent did right) is a green ✓,
 * with a neutral "answer dropped" mark; an answer lost with the Agent is neither green nor red. The
 * inspector's own retry, forwarded to the client, reads as seen. Light and dark, 1280×720 and
 * 1600×1000; screenshots are saved with the test's output.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

test.describe.configure({ timeout: 120_000 });

const S = "sess-c";
const TAP_ID = "acp-retry-inspector:retry:1";

/** The correct and naive stories (a keyed retry after a dropped answer), an inspector retry, a killed Agent. */
function coloursTrace(): string {
  const t = new TraceScript()
    .spawn(77, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .prompt(1, 1, S, "correct story", "key-correct-0001")
    .inserted(1, 1, "msg-good", { dropped: true })
    .prompt(1, 2, S, "correct story", "key-correct-0001")
    .inserted(1, 2, "msg-good")
    .prompt(1, 3, S, "naive story", "key-naive-0002")
    .inserted(1, 3, "msg-first", { dropped: true })
    .prompt(1, 4, S, "naive story", "key-naive-0002")
    .inserted(1, 4, "msg-again")
    .prompt(1, 5, S, "retried by the inspector", "key-inspector-0003");
  const copyOf = t.records.at(-1)?.seq as number;
  t.inserted(1, 5, "msg-insp", { dropped: true });
  const params = {
    sessionId: S,
    prompt: [{ type: "text", text: "retried by the inspector" }],
    idempotencyKey: "key-inspector-0003",
  };
  t.raw(
    1,
    "client->agent",
    JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
    {
      origin: "inspector",
      replaces: 5,
      copyOf,
    },
  );
  t.raw(
    1,
    "agent->client",
    JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "msg-insp" } }),
    {
      origin: "inspector",
    },
  );
  const answerSeq = t.records.at(-1)?.seq as number;
  t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: 5, result: { messageId: "msg-insp" } }), {
    origin: "inspector",
    replaces: TAP_ID,
    copyOf: answerSeq,
  });
  t.prompt(1, 6, S, "killed mid-turn", "key-killed-0004").exit(77, null, "SIGKILL").close(1, "agent exited");
  return t.jsonl();
}

async function importColours(page: Page): Promise<Locator> {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "colours.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(coloursTrace()),
  });
  return page.getByRole("treegrid", { name: "Timeline" });
}

/** Expands the submission row holding `text`. */
async function expand(page: Page, grid: Locator, text: string): Promise<void> {
  const row = grid.getByRole("row").filter({ hasText: text }).first();
  await row.click();
  await grid.focus();
  await page.keyboard.press("ArrowRight");
  await expect(row).toHaveAttribute("aria-expanded", "true");
}

/** The Result badge of the attempt row whose words contain `words`. */
function attemptBadge(grid: Locator, words: string): Locator {
  return grid.locator(".badge", { hasText: words }).first();
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`${colorScheme}: each attempt's colour and icon say what the Agent did, not what travelled`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    const problems = guardConsole(page);
    const grid = await importColours(page);
    const theme = page.getByRole("button", { name: "Dark theme" });
    if ((await theme.getAttribute("aria-pressed")) !== String(colorScheme === "dark")) await theme.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
    const details = page.getByRole("region", { name: "Details" });

    for (const story of ["correct story", "naive story", "retried by the inspector", "killed mid-turn"])
      await expand(page, grid, story);

    // Correct: the dropped answer's attempt is a green ✓ (the Agent inserted once), and so is the dedup.
    const dropped = attemptBadge(grid, "inserted → messageId msg-good; answer dropped");
    await expect(dropped).toHaveClass(/badge--ok/);
    await expect(dropped.locator("[aria-hidden=true]").first()).toHaveText("✓");
    await expect(attemptBadge(grid, "answered with the original messageId msg-good")).toHaveClass(
      /badge--ok/,
    );

    // Naive: the first insert is green, the duplicate a red ✗.
    await expect(attemptBadge(grid, "inserted → messageId msg-first; answer dropped")).toHaveClass(
      /badge--ok/,
    );
    const duplicate = attemptBadge(grid, "inserted → messageId msg-again");
    await expect(duplicate).toHaveClass(/badge--error/);
    await expect(duplicate.locator("[aria-hidden=true]").first()).toHaveText("✗");

    // The inspector's retry: the client got its answer; nothing says it never saw one.
    const inspectorRow = grid.getByRole("row").filter({ hasText: "retried by the inspector" }).first();
    await expect(inspectorRow).toContainText("inserted once → messageId msg-insp");
    await expect(attemptBadge(grid, "the client got its retry's answer")).toHaveClass(/badge--ok/);
    await expect(attemptBadge(grid, "forwarded to the client under its id 5")).toHaveClass(/badge--ok/);

    // Killed mid-turn: unknown, neither green nor red.
    const lost = attemptBadge(grid, "lost: the agent died before answering");
    await expect(lost).toHaveClass(/badge--neutral/);
    await expect(lost).not.toHaveClass(/badge--ok|badge--error/);

    // Details: the correct story's dropped answer has its own neutral transport mark.
    await grid.getByRole("row").filter({ hasText: "correct story" }).first().click();
    const attempts = details.locator("ol.attempts li");
    await expect(attempts.first().locator(".badge--ok")).toHaveCount(1);
    await expect(attempts.first().locator(".badge--neutral")).toHaveText(/answer dropped/);
    await expect(details.locator("ol.attempts .badge--error")).toHaveCount(0);

    for (const size of [
      { width: 1280, height: 720 },
      { width: 1600, height: 1000 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({
        path: testInfo.outputPath(`attempt-colours-${colorScheme}-${size.width}x${size.height}.png`),
      });
    }
    await grid.getByRole("row").filter({ hasText: "naive story" }).first().click();
    await expect(details.locator("ol.attempts .badge--error")).toHaveCount(1);
    await page.screenshot({
      path: testInfo.outputPath(`attempt-colours-naive-${colorScheme}-1600x1000.png`),
    });
    expect(problems).toEqual([]);
    await context.close();
  });
}
