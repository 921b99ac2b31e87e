import { expect, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { rawClient } from "../harness/raw-client.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeEach(async () => {
  hub = await startServe();
});
test.afterEach(async () => {
  await hub.stop();
});

/** A loaded machine can take seconds to start the proxy and its agent (two node processes). */
const STARTUP_MS = 30_000;

/** A proxy (named `name`) over a demo agent, driven by a raw client through one prompt, answered. */
async function tapWithOnePrompt(name: string, keyed: boolean) {
  const proxy = hub.spawnDemoTap(name);
  const client = rawClient(proxy);
  const init = client.send("initialize", {
    protocolVersion: 2,
    info: { name: "pw", version: "1" },
    capabilities: {},
  });
  await expect.poll(() => client.answers(init).length, { timeout: STARTUP_MS }).toBe(1);
  const created = client.send("session/new", { cwd: hub.scratch(".") });
  await expect.poll(() => client.answers(created).length, { timeout: STARTUP_MS }).toBe(1);
  const sessionId = client.answers(created)[0]?.result?.sessionId as string;
  const prompt = client.send("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "deploy it" }],
    ...(keyed && { idempotencyKey: "pw-key-1" }),
  });
  await expect.poll(() => client.answers(prompt).length, { timeout: STARTUP_MS }).toBe(1);
  return { proxy, client, prompt, sessionId };
}

for (const keyed of [true, false]) {
  test(`Retry latest prompt now (${keyed ? "keyed" : "unkeyed"}): the Timeline shows attempt 2 by the inspector`, async ({
    page,
  }, testInfo) => {
    const problems = guardConsole(page);
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
    const { proxy, client, prompt } = await tapWithOnePrompt(keyed ? "retry-keyed" : "retry-unkeyed", keyed);

    const grid = page.getByRole("treegrid", { name: "Timeline" });
    const row = grid.getByRole("row").filter({ hasText: "deploy it" });
    await expect(row).toHaveCount(1);
    await page.getByRole("button", { name: "Faults", exact: true }).click(); // the drawer starts closed
    await page.getByRole("button", { name: "Retry latest prompt now" }).click();
    // The notice says the rule was carried out, then that it fired; both keep the unkeyed caveat.
    const status = page.getByRole("status").filter({ hasText: "Resend the latest session/prompt" }).first();
    await expect(status).toContainText(/done \(acknowledged by 1 tap\)|fired at/);
    await expect(status).toContainText(
      "If the prompt has no idempotencyKey, even a correct agent inserts it again.",
    );

    await expect(row).toContainText(keyed ? "deduplicated" : "deploy it");
    await row.click();
    await page.keyboard.press("ArrowRight");
    await expect(row).toHaveAttribute("aria-expanded", "true");
    const inspectorAttempt = grid.getByRole("row").filter({ hasText: "attempt 2 (inspector)" });
    await expect(inspectorAttempt).toHaveCount(1);
    const details = page.getByRole("region", { name: "Details" });
    await expect(details).toContainText("retry by the inspector; its answer was recorded and not forwarded");
    if (!keyed) {
      await expect(details.getByRole("note")).toContainText(
        "The inspector retried this prompt, which has no valid key: a prompt without an idempotencyKey cannot be told apart from a new one",
      );
    }
    expect(client.answers(prompt)).toHaveLength(1); // the client never saw the inspector's answer
    await page.screenshot({
      path: testInfo.outputPath(`inspector-retry-${keyed ? "keyed" : "unkeyed"}.png`),
    });
    await inspectorAttempt.click();
    await expect(details).toContainText("Sent by the inspector, not the client");
    await expect(details).toContainText(`a retry by the inspector, a copy of #`);
    await expect(details).toContainText(`with id ${prompt} replaced`);
    await expect(details).toContainText("the answer to a retry by the inspector, received by the inspector");
    proxy.stdin?.end();
    expect(problems).toEqual([]);
  });
}

test("a Timeline row's ⋯ menu → Retry this submission now: the new attempt appears, marked as the inspector's", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const { proxy, client, prompt } = await tapWithOnePrompt("retry-from-row", true);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: "deploy it" });
  await expect(row).toHaveCount(1);
  await expect(row).not.toContainText("deduplicated");

  await row.getByRole("button", { name: "Faults for this row" }).click();
  const menu = page.getByRole("menu", { name: "Faults for this row" });
  await expect(menu).toContainText("Faults on tap retry-from-row");
  await menu.getByRole("menuitem", { name: "Retry this submission now" }).click();
  await expect(menu).toBeHidden();

  // the retry went out with the same key and the correct agent answered it with the original messageId
  await expect(row).toContainText("deduplicated");
  await row.click();
  await page.keyboard.press("ArrowRight");
  await expect(row).toHaveAttribute("aria-expanded", "true");
  const inspectorAttempt = grid.getByRole("row").filter({ hasText: "attempt 2 (inspector)" });
  await expect(inspectorAttempt).toHaveCount(1);
  await inspectorAttempt.click();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Sent by the inspector, not the client");
  await expect(details).toContainText(`with id ${prompt} replaced`);
  expect(client.answers(prompt)).toHaveLength(1); // the client never saw the inspector's answer
  await page.screenshot({ path: testInfo.outputPath("inspector-retry-from-row.png") });
  proxy.stdin?.end();
  expect(problems).toEqual([]);
});
