/** Trace files for the browser tests, built with the analyzer's `TraceScript`. */
import { expect, type Locator, type Page } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";

/** Text that would run script if it were ever rendered as HTML. */
export const HOSTILE = "<img src=x onerror=window.__pwned=1>";

/**
 * A session with one of each interesting submission: deduplicated after a lost answer, a retry
 * after an error, a duplicate insert (an Agent violation), the same key with a different prompt,
 * a hostile prompt, plus a non-prompt request, a malformed frame and agent stderr.
 */
export function sessionTrace(): TraceScript {
  return new TraceScript()
    .spawn(4242, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .request(1, "client->agent", 1, "session/new", { cwd: "/w" })
    .result(1, "agent->client", 1, { sessionId: "sess-1" })
    .prompt(1, 2, "sess-1", "write a haiku", "key-dedup-0001")
    .inserted(1, 2, "msg-1", { dropped: true })
    .close(1, "client timed out")
    .open(2)
    .prompt(2, 1, "sess-1", "write a haiku", "key-dedup-0001")
    .inserted(2, 1, "msg-1")
    .prompt(2, 2, "sess-1", "run the tests", "key-error-0002")
    .error(2, 2, -32603, "internal error")
    .prompt(2, 3, "sess-1", "run the tests", "key-error-0002")
    .inserted(2, 3, "msg-2")
    .stderr(4242, "agent: inserted msg-2 after a failed attempt")
    .prompt(2, 4, "sess-1", "deploy", "key-dup-0003")
    .inserted(2, 4, "msg-3")
    .prompt(2, 5, "sess-1", "deploy", "key-dup-0003")
    .inserted(2, 5, "msg-4")
    .prompt(2, 6, "sess-1", "first wording", "key-reuse-0004")
    .inserted(2, 6, "msg-5")
    .prompt(2, 7, "sess-1", "second wording", "key-reuse-0004")
    .inserted(2, 7, "msg-5")
    .prompt(2, 8, "sess-1", HOSTILE, "key-hostile-0005")
    .inserted(2, 8, "msg-6")
    .raw(2, "agent->client", "this line is not JSON")
    .request(2, "agent->client", 90, "fs/read_text_file", { sessionId: "sess-1", path: "/w/README.md" })
    .result(2, "client->agent", 90, { content: "hello" });
}

/** Imports `sessionTrace()` as session.jsonl through the toolbar; resolves with the Timeline once it shows it. */
export async function importSessionTrace(page: Page): Promise<Locator> {
  await page.getByLabel("Import trace file").setInputFiles({
    name: "session.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(sessionTrace().jsonl()),
  });
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid).toContainText("write a haiku");
  return grid;
}

/**
 * A prompt whose answer the inspector dropped, retried with the same key on a second connection
 * (answered with the original messageId), after initialize and session/new, then a session/list.
 */
export function lostAnswerRetryTrace(): TraceScript {
  return new TraceScript(1_700_000_000_000)
    .spawn(4242, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .wait(5)
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .request(1, "client->agent", 1, "session/new", { cwd: "/w" })
    .wait(300)
    .result(1, "agent->client", 1, { sessionId: "sess-1" })
    .prompt(1, 2, "sess-1", "write a haiku", "key-dedup-0001")
    .wait(40)
    .inserted(1, 2, "msg-1", { dropped: true })
    .close(1, "client timed out")
    .open(2)
    .prompt(2, 1, "sess-1", "write a haiku", "key-dedup-0001")
    .wait(20)
    .inserted(2, 1, "msg-1")
    .request(2, "client->agent", 2, "session/list", {})
    .wait(90)
    .result(2, "agent->client", 2, { sessions: [] });
}
