/**
 * The outcome words in the app (issue 13, "The words"): an imported trace with a deduplicated retry
 * after a dropped answer, a held prompt withdrawn by -32800, an Agent killed mid-turn and a prompt
 * still held. The Timeline's Result cells and the Details pane say what happened to each attempt
 * and what the Client saw, in the analyzer's words, at a projector's 1280×720 and at 1600×1000.
 */
import { expect, type Page, test } from "@playwright/test";
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

const S = "sess-w";

/** One submission of each story, on a v2 connection. */
function wordsTrace(): TraceScript {
  return new TraceScript()
    .spawn(77, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .prompt(1, 1, S, "write a haiku", "key-dedup-0001")
    .inserted(1, 1, "msg-7c4d", { dropped: true })
    .prompt(1, 2, S, "write a haiku", "key-dedup-0001")
    .inserted(1, 2, "msg-7c4d")
    .prompt(1, 3, S, "deploy to production", "key-cancel-0002")
    .prompt(1, 4, S, "deploy to production", "key-cancel-0002")
    .cancelRequest(1, 4)
    .error(1, 3, -32800, "cancelled")
    .error(1, 4, -32800, "cancelled")
    .prompt(1, 5, S, "summarise the logs", "key-killed-0003")
    .exit(77, null, "SIGKILL")
    .close(1, "agent exited")
    .spawn(78, ["demo-agent"])
    .open(2)
    .request(2, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(2, "agent->client", 0, { protocolVersion: 2 })
    .prompt(2, 1, S, "long task", "key-busy-0004")
    .inserted(2, 1, "msg-busy")
    .prompt(2, 2, S, "queued behind it", "key-held-0005");
}

async function importWords(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "words.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(wordsTrace().jsonl()),
  });
  return page.getByRole("treegrid", { name: "Timeline" });
}

/** Expands the submission row holding `text` and returns its attempt rows' locator. */
async function expand(page: Page, text: string) {
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: text }).first();
  await row.click();
  await grid.focus();
  await page.keyboard.press("ArrowRight");
  await expect(row).toHaveAttribute("aria-expanded", "true");
  return row;
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1600, height: 1000 },
]) {
  test(`every attempt says what happened and what the client saw, at ${size.width}×${size.height}`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(size);
    const problems = guardConsole(page);
    const grid = await importWords(page);
    const details = page.getByRole("region", { name: "Details" });

    // The submissions' Result: the Client's side, never a dropped answer's messageId as the Client's.
    await expect(grid.getByRole("row").filter({ hasText: "write a haiku" }).first()).toContainText(
      "inserted once → messageId msg-7c4d",
    );
    await expect(grid.getByRole("row").filter({ hasText: "deploy to production" }).first()).toContainText(
      "withdrawn",
    );
    await expect(grid.getByRole("row").filter({ hasText: "queued behind it" }).first()).toContainText(
      "pending (held)",
    );

    // The deduplicated pair: the retry is not labelled inserted.
    await expand(page, "write a haiku");
    await expect(grid).toContainText(
      "inserted → messageId msg-7c4d; answer dropped by the inspector: the client never saw it",
    );
    await expect(grid).toContainText("answered with the original messageId msg-7c4d (no new insert)");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(details).toContainText("Attempt 2 of 2");
    await expect(details).toContainText("answered with the original messageId msg-7c4d (no new insert)");
    await page.screenshot({ path: testInfo.outputPath(`dedup-${size.width}x${size.height}.png`) });

    // Withdrawn: both -32800, a verdict, nothing reads pending.
    await grid.getByRole("row").filter({ hasText: "deploy to production" }).first().click();
    await expect(details.getByRole("article", { name: "Verdict withdrawn" })).toBeVisible();
    await expect(details).toContainText("withdrawn: every attempt cancelled (-32800), nothing inserted");
    await expect(details).toContainText("cancelled (-32800) before insertion");
    // (The RFD sentence it cites says "pending request"; the submission and its attempts never do.)
    await expect(details).not.toContainText("No verdict yet");
    await expect(details.locator("ol.attempts")).not.toContainText("pending");
    await expect(details.locator("dl.facts")).not.toContainText("pending");
    await page.screenshot({ path: testInfo.outputPath(`withdrawn-${size.width}x${size.height}.png`) });

    // The Agent killed mid-turn: unknown, never "not inserted".
    await grid.getByRole("row").filter({ hasText: "summarise the logs" }).first().click();
    await expect(details).toContainText(
      "lost: the agent died before answering; whether it inserted is unknown",
    );
    await expect(details).toContainText(
      "unknown: no answer reached the client; whether it inserted is unknown",
    );
    await expect(details).not.toContainText("not inserted");
    await page.screenshot({ path: testInfo.outputPath(`killed-${size.width}x${size.height}.png`) });

    // Still held.
    await grid.getByRole("row").filter({ hasText: "queued behind it" }).first().click();
    await expect(details).toContainText("No verdict yet (an attempt is pending).");
    await expect(details).toContainText("pending (held)");
    expect(problems).toEqual([]);
  });
}
