/**
 * Issue 34 item 2 in Chromium against a real `serve`: a live tap in front of a small agent that
 * answers a v2 session/prompt without the messageId the v2 schema requires. The hub checks its trace
 * against the official ACP schema; the prompt's Timeline row shows "⚠ schema", the initialize row
 * does not, and Details names the frame, the path and what the schema says.
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { expect, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe(30_000);
});
test.afterAll(async () => {
  await hub?.stop();
});

/** An agent that speaks v2 but answers session/prompt with a v1-style `{stopReason}` (no messageId). */
const AGENT = `
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  const result = m.method === "initialize"
    ? { protocolVersion: 2, capabilities: { session: {} }, info: { name: "no-message-id", version: "1" } }
    : { stopReason: "end_turn" };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
});`;

/** Sends initialize and one keyed prompt through the tap; resolves when both are answered. */
async function talk(child: ChildProcess): Promise<void> {
  let answers = 0;
  const done = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout! }).on("line", () => {
      if (++answers === 2) resolve();
    }),
  );
  const frames = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 2, capabilities: {}, info: { name: "c", version: "1" } },
    },
    {
      jsonrpc: "2.0",
      id: 1,
      method: "session/prompt",
      params: {
        sessionId: "s1",
        prompt: [{ type: "text", text: "an answer without messageId" }],
        idempotencyKey: "key-schema-1",
      },
    },
  ];
  child.stdin!.write(`${frames.map((f) => JSON.stringify(f)).join("\n")}\n`);
  await done;
}

test("a row whose frame breaks the schema has the badge and Details explains it", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  const child = hub.spawnCli(["proxy", "--name", "no-message-id", "--", process.execPath, "-e", AGENT]);
  await talk(child);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const bad = grid.getByRole("row").filter({ hasText: "an answer without messageId" }).first();
  await expect(bad.locator(".schema-badge")).toHaveText("⚠ schema", { timeout: 10_000 });
  await expect(grid.getByRole("row").filter({ hasText: "initialize" }).locator(".schema-badge")).toHaveCount(
    0,
  );
  await bad.click();
  const section = page.getByRole("region", { name: "Schema violations" });
  await expect(section).toContainText(
    "checked as PromptResponse against the v2 (+ RFD idempotencyKey) schema",
  );
  await expect(section).toContainText("/result: must have required property 'messageId'");
  await page.screenshot({ path: testInfo.outputPath("schema-badge-1280x720.png") });
  await page.setViewportSize({ width: 1600, height: 1000 });
  await expect(section).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("schema-badge-1600x1000.png") });
  child.stdin!.end();
  expect(problems).toEqual([]);
});
