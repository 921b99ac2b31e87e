/**
 * Issue 15 item 2 in the browser: a real proxy with `--collect-agent-telemetry` around the demo
 * agent with `--otel` (the OpenTelemetry JS SDK exporting to the proxy's receiver); the Details
 * pane shows the agent's spans as a tree under the attempt they happened in: one prompt matched by
 * the traceparent it carried in `params._meta`, one by time. The Timeline counts the spans on each
 * submission and attempt row, and spans that matched no attempt are shown with the reason.
 */
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cliPath, projectRoot } from "../harness/build-once.js";
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

const POKER = join(projectRoot, "electron", "agent-telemetry", "testing", "otlp-poking-agent.mjs");

test("the Timeline counts each attempt's spans, and spans outside every attempt say why", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  // The agent command: a real process that first sends the receiver a span tree from a minute ago
  // (no trace context, before any prompt), then becomes the demo agent with --otel (same token).
  const proxy = hub.spawnCli([
    "proxy",
    "--name",
    "telemetry-outside",
    "--collect-agent-telemetry",
    "--trace",
    hub.scratch("outside.jsonl"),
    "--",
    "sh",
    "-c",
    '"$0" "$1" outside </dev/null 2>/dev/null; exec "$0" "$2" demo-agent --otel --store "$3" --turn-ms 100',
    process.execPath,
    POKER,
    cliPath,
    hub.scratch("store"),
  ]);
  const client = rawClient(proxy);
  const init = client.send("initialize", {
    protocolVersion: 2,
    info: { name: "pw", version: "1" },
    capabilities: {},
  });
  // Two node processes start before the agent answers: slow on a busy machine.
  await expect.poll(() => client.answers(init).length, { timeout: 30_000 }).toBe(1);
  const created = client.send("session/new", { cwd: hub.scratch(".") });
  await expect.poll(() => client.answers(created).length).toBe(1);
  const sessionId = client.answers(created)[0]?.result?.sessionId as string;
  const prompt = client.send("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "count my spans" }],
    idempotencyKey: "pw-telemetry-count",
  });
  await expect.poll(() => client.answers(prompt).length).toBe(1);

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const details = page.getByRole("region", { name: "Details" });
  // Nothing selected: the spans that matched no attempt, with why.
  const outside = details.getByRole("region", { name: "Agent spans outside any attempt" });
  await expect(outside).toContainText("2 of the agent's 5 spans matched no prompt attempt");
  await expect(outside).toContainText(
    /no trace context \(its trace id was in no request's traceparent\), and outside every attempt's time: it started \d+\.\d s before the nearest attempt on connection #1 was sent/,
  );
  const early = outside.getByRole("listitem").filter({ hasText: "early work" }).last();
  await expect(early.getByRole("listitem")).toContainText("warm cache");

  // The submission row counts the demo agent's turn (prompt turn, dedup lookup, insert).
  const row = grid.getByRole("row").filter({ hasText: "count my spans" });
  await expect(row.getByRole("img", { name: "3 agent telemetry spans during its attempts" })).toHaveText(
    "3 spans",
  );
  await row.click();
  await page.keyboard.press("ArrowRight");
  const attemptRow = grid.getByRole("row").filter({ hasText: "attempt 1" }).first();
  await expect(
    attemptRow.getByRole("img", { name: "3 agent telemetry spans during this attempt" }),
  ).toHaveText("3 spans");
  await attemptRow.click();
  await expect(details.getByRole("region", { name: "Agent telemetry" })).toContainText(
    "3 agent spans, matched by time on its connection",
  );
  // Still shown with an attempt selected, below its own spans.
  await expect(outside).toContainText("early work");
  for (const colorScheme of ["light", "dark"] as const) {
    const dark = page.getByRole("button", { name: "Dark theme" });
    if (colorScheme === "dark" && (await dark.getAttribute("aria-pressed")) !== "true") await dark.click();
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1600, height: 1000 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({
        path: testInfo.outputPath(`agent-spans-count-${colorScheme}-${size.width}x${size.height}.png`),
      });
    }
  }
  proxy.stdin?.end();
  expect(problems).toEqual([]);
});
