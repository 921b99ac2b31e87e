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

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

test("the agent's own spans appear nested under the attempt they happened in", async ({ page }, testInfo) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const proxy = hub.spawnDemoTap("telemetry-demo", {
    proxyArgs: ["--collect-agent-telemetry"],
    agentArgs: ["--otel"],
  });
  const client = rawClient(proxy);
  const init = client.send("initialize", {
    protocolVersion: 2,
    info: { name: "pw", version: "1" },
    capabilities: {},
  });
  await expect.poll(() => client.answers(init).length).toBe(1);
  const created = client.send("session/new", { cwd: hub.scratch(".") });
  await expect.poll(() => client.answers(created).length).toBe(1);
  const sessionId = client.answers(created)[0]?.result?.sessionId as string;
  const traced = client.send("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "deploy with a traceparent" }],
    idempotencyKey: "pw-telemetry-1",
    _meta: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
  });
  await expect.poll(() => client.answers(traced).length).toBe(1);
  const timed = client.send("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "deploy by time" }],
    idempotencyKey: "pw-telemetry-2",
  });
  await expect.poll(() => client.answers(timed).length).toBe(1);

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const details = page.getByRole("region", { name: "Details" });
  const telemetry = details.getByRole("region", { name: "Agent telemetry" });

  // The submission sent with a traceparent: its attempt's spans, matched by that trace context.
  const tracedRow = grid.getByRole("row").filter({ hasText: "deploy with a traceparent" });
  await tracedRow.click();
  await expect(telemetry).toContainText("3 agent spans, matched by the traceparent the request carried");
  await page.keyboard.press("ArrowRight");
  await grid.getByRole("row").filter({ hasText: "attempt 1" }).first().click();
  await expect(details).toContainText("Attempt 1 of 1");
  const turn = telemetry.getByRole("listitem").filter({ hasText: "prompt turn" });
  await expect(turn).toHaveCount(1);
  // Nested: the lookup and the insert are list items inside the turn's item, each with a duration.
  await expect(turn.getByRole("listitem")).toHaveCount(2);
  await expect(turn.getByRole("listitem").nth(0)).toContainText(/dedup lookup \d+(\.\d)? ms, from \+\d/);
  await expect(turn.getByRole("listitem").nth(0)).toContainText("acp.dedup.result=new");
  await expect(turn.getByRole("listitem").nth(1)).toContainText(/insert \d+(\.\d)? ms/);
  await expect(turn).toContainText(`jsonrpc.request.id=${traced}`);
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1600, height: 1000 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: testInfo.outputPath(`agent-telemetry-${size.width}x${size.height}.png`) });
  }

  // The other one, by time on its connection: its own turn (its own jsonrpc id), not the first's.
  await grid.getByRole("row").filter({ hasText: "deploy by time" }).click();
  await expect(telemetry).toContainText("3 agent spans, matched by time on its connection");
  await expect(telemetry.getByRole("listitem").filter({ hasText: "prompt turn" })).toContainText(
    `jsonrpc.request.id=${timed}`,
  );
  proxy.stdin?.end();
  expect(problems).toEqual([]);
});
