import { expect, type Page, test } from "@playwright/test";
import type { FaultRule } from "../../shared/faults/fault-rule.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

async function faultList(): Promise<FaultRule[]> {
  const r = await hub.cli(["fault", "list", "--json", "--hub", hub.bareUrl]);
  expect(r.code, r.stderr).toBe(0);
  const parsed = JSON.parse(r.stdout) as { rules?: FaultRule[] } | FaultRule[];
  return Array.isArray(parsed) ? parsed : (parsed.rules ?? []);
}

async function open(page: Page) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  return page.getByRole("region", { name: "Armed fault rules" });
}

test("fault buttons arm rules the hub lists, and the UI disarms them", async ({ page }, testInfo) => {
  const problems = guardConsole(page);
  const armed = await open(page);
  await expect(armed).toContainText("No fault armed");

  await page.getByRole("button", { name: "Drop next response" }).click();
  await expect(armed).toContainText("drop-response");
  await expect(armed).toContainText("method=session/prompt");
  await page.getByLabel("Method", { exact: true }).fill("");
  await page.getByRole("button", { name: "Drop next request" }).click();
  await page.getByLabel("Delay ms").fill("1500");
  await page.getByRole("button", { name: "Delay next response" }).click();
  await expect(armed.getByRole("listitem")).toHaveCount(3);

  const listed = await faultList();
  expect(listed.map((r) => r.action)).toEqual(["drop-response", "drop-request", "delay"]);
  expect(listed[0]!.match).toMatchObject({ method: "session/prompt", on: "response" });
  expect(listed[2]).toMatchObject({ delayMs: 1500, match: { on: "response" } });
  for (const r of listed) await expect(armed).toContainText(r.id);
  await page.screenshot({ path: testInfo.outputPath("faults-armed.png") });

  await armed.getByRole("button", { name: `Disarm ${listed[1]!.id}` }).click();
  await expect(armed.getByRole("listitem")).toHaveCount(2);
  expect((await faultList()).map((r) => r.id)).toEqual([listed[0]!.id, listed[2]!.id]);

  // Rules armed elsewhere (the CLI) show up in the UI too, and clearing there empties the list here.
  expect(
    (await hub.cli(["fault", "kill-agent", "--method", "session/prompt", "--hub", hub.bareUrl])).code,
  ).toBe(0);
  await expect(armed).toContainText("kill-agent");
  expect((await hub.cli(["fault", "clear", "--hub", hub.bareUrl])).code).toBe(0);
  await expect(armed).toContainText("No fault armed");
  expect(await faultList()).toEqual([]);
  expect(problems).toEqual([]);
});

test("lifecycle buttons act at once and are not left armed", async ({ page }) => {
  const problems = guardConsole(page);
  const armed = await open(page);
  for (const name of ["Reconnect client", "Kill agent", "Restart agent"]) {
    await page.getByRole("button", { name }).click();
    await expect(page.getByRole("status").filter({ hasText: name })).toContainText("sent now");
  }
  await expect(armed).toContainText("No fault armed");
  expect(await faultList()).toEqual([]);
  expect(problems).toEqual([]);
});
