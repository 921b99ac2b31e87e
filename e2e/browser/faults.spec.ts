/**
 * The toolbar's fault controls and a Timeline row's fault menu in real Chromium, against a real
 * hub with two real taps (stdio `proxy` processes, each with a demo agent, this test as their
 * client). Rules arm on the shown trace's tap by default, "all live taps (2)" is a choice, kill
 * asks first naming the pid, and a row's menu fills the rule in for that row.
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { expect, type Page, test } from "@playwright/test";
import type { ArmedFault } from "../../shared/faults/armed-fault.js";
import { FAULT_ACTIONS } from "../../shared/faults/fault-rule.js";
import type { TapSummary } from "../../shared/hub/tap-summary.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { pickTrace } from "../harness/trace-picker.js";

const KEY = "faults-spec-key-0001";

let hub: ServeProcess;

/** A stdio tap named `name` with a demo agent; the test is its client. Resolves once its prompt was answered. */
async function tap(
  name: string,
): Promise<{ child: ChildProcess; sessionId: string; send: (m: object) => void }> {
  const child = hub.spawnDemoTap(name, { store: `${name}-store`, turnMs: 20 });
  const answers = new Map<number, Record<string, unknown>>();
  let seen = () => {};
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const m = JSON.parse(line) as { id?: number };
    if (typeof m.id === "number") answers.set(m.id, m as Record<string, unknown>);
    seen();
  });
  const answer = (id: number) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => answers.has(id) && resolve(answers.get(id)!);
      seen = check;
      check();
    });
  const send = (m: object) => child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  send({
    id: 0,
    method: "initialize",
    params: { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} },
  });
  await answer(0);
  send({ id: 1, method: "session/new", params: { cwd: hub.scratch("."), mcpServers: [] } });
  const sessionId = ((await answer(1)).result as { sessionId: string }).sessionId;
  send({
    id: 2,
    method: "session/prompt",
    params: { sessionId, prompt: [{ type: "text", text: `hello from ${name}` }], idempotencyKey: KEY },
  });
  await answer(2);
  return { child, sessionId, send };
}

async function taps(): Promise<TapSummary[]> {
  const r = await hub.cli(["taps", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as TapSummary[]).filter((t) => t.attached);
}

async function board(): Promise<ArmedFault[]> {
  const r = await hub.cli(["fault", "list", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { faults: ArmedFault[] }).faults;
}

let b: { child: ChildProcess; sessionId: string; send: (m: object) => void };
test.beforeAll(async () => {
  hub = await startServe();
  await tap("tap-a");
  b = await tap("tap-b");
  await expect.poll(async () => (await taps()).length, { timeout: 15_000 }).toBe(2);
});
test.afterAll(async () => {
  await hub.stop();
});
test.beforeEach(async () => {
  expect((await hub.cli(["fault", "clear"])).code).toBe(0);
});

/** The toolbar's fault group (the Timeline's filter bar has Session and Key boxes too). */
const fx = (page: Page) => page.getByRole("group", { name: "Fault injection" });

async function open(page: Page, name: string) {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await pickTrace(page, name);
  // the drawer starts closed at every size: the Faults toggle opens it
  const toggle = page.getByRole("button", { name: "Faults", exact: true });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  return page.getByRole("region", { name: "Armed fault rules" });
}

async function shoot(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: test.info().outputPath(`${name}-${w}x${h}.png`) });
  }
}

test("rules arm on the shown trace's tap by default; all live taps is a choice; kill asks first, naming the pid", async ({
  page,
}) => {
  const problems = guardConsole(page);
  const armed = await open(page, "tap-a");
  const live = await taps();
  const ta = live.find((t) => t.name === "tap-a")!;
  const tb = live.find((t) => t.name === "tap-b")!;
  await expect(armed).toContainText("No fault armed");
  const target = fx(page).getByLabel("Arm on", { exact: true });
  await expect(target).toContainText(`shown trace: tap tap-a (pid ${ta.agentPids[0]})`);

  await page.getByRole("button", { name: "Drop next response" }).click();
  await expect(armed).toContainText(
    `Drop the next session/prompt response · tap tap-a (pid ${ta.agentPids[0]}) · armed · 1 left`,
  );
  let rules = await board();
  expect(rules.map((f) => [f.rule.action, f.state, f.taps.map((t) => t.traceId)])).toEqual([
    ["drop-response", "armed", [ta.traceId]],
  ]);

  // every field of the rule, and the all-taps choice
  await target.selectOption({ label: "all live taps (2)" });
  await fx(page).getByLabel("Method", { exact: true }).fill("session/prompt");
  await fx(page).getByLabel("Session", { exact: true }).fill(b.sessionId);
  await fx(page).getByLabel("Key", { exact: true }).fill(KEY);
  await fx(page).getByLabel("Frame", { exact: true }).selectOption("request");
  await fx(page).getByLabel("Count", { exact: true }).fill("3");
  await fx(page).getByLabel("Delay ms").fill("1500");
  await page.getByRole("button", { name: "Delay next request" }).click();
  await expect(armed.getByRole("listitem")).toHaveCount(2);
  await expect(armed).toContainText("Delay the next 3 session/prompt requests in session");
  await expect(armed).toContainText("all live taps (2)");
  rules = await board();
  expect(rules[1]).toMatchObject({
    allTaps: true,
    state: "armed",
    rule: {
      action: "delay",
      delayMs: 1500,
      count: 3,
      match: { method: "session/prompt", sessionId: b.sessionId, idempotencyKey: KEY, on: "request" },
    },
  });
  expect(rules[1]!.taps.map((t) => t.traceId).sort()).toEqual([ta.traceId, tb.traceId].sort());
  await shoot(page, "faults-armed");

  // kill asks first, naming the pid of the tap it goes to; Cancel leaves the agent alone
  await target.selectOption({ index: 0 });
  await page.getByRole("button", { name: "Kill agent" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm fault" });
  await expect(confirm).toContainText(`SIGKILL agent pid ${ta.agentPids[0]} of tap tap-a?`);
  await shoot(page, "faults-kill-confirm");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await taps()).find((t) => t.name === "tap-a")?.agentPids).toEqual(ta.agentPids);

  await armed.getByRole("button", { name: `Disarm ${rules[0]!.rule.id}` }).click();
  await expect(armed.getByRole("listitem")).toHaveCount(1);
  expect((await board()).map((f) => f.rule.id)).toEqual([rules[1]!.rule.id]);
  expect(problems).toEqual([]);
});

test("a row's fault menu (right-click, ⋯, Shift+F10) fills the rule in for that row, on the shown tap", async ({
  page,
}) => {
  const problems = guardConsole(page);
  const armed = await open(page, "tap-b");
  const tb = (await taps()).find((t) => t.name === "tap-b")!;
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const row = grid.getByRole("row").filter({ hasText: "hello from tap-b" });
  await expect(row).toBeVisible();

  await row.click({ button: "right" });
  const menu = page.getByRole("menu", { name: "Faults for this row" });
  await expect(menu).toContainText(`Faults on tap tap-b (pid ${tb.agentPids[0]})`);
  const items = menu.getByRole("menuitem");
  await expect(items.filter({ hasText: "Drop the next response in this session" })).toHaveCount(1);
  await expect(items.filter({ hasText: "Delay the next response of this key…" })).toHaveCount(1);
  await expect(items.filter({ hasText: "Kill this agent" })).toHaveCount(1);
  // the retry entry comes with the catalogue's `retry` action, and only with it
  await expect(items.filter({ hasText: "Retry this submission now" })).toHaveCount(
    (FAULT_ACTIONS as readonly string[]).includes("retry") ? 1 : 0,
  );
  await shoot(page, "row-menu");
  await items.filter({ hasText: "Drop the next response of this key" }).click();
  await expect(menu).toBeHidden();
  await expect(armed).toContainText(
    `Drop the next session/prompt response in session ${b.sessionId} with key ${KEY} · tap tap-b (pid ${tb.agentPids[0]}) · armed`,
  );
  expect((await board())[0]).toMatchObject({
    taps: [{ traceId: tb.traceId, acked: true }],
    rule: { action: "drop-response", match: { sessionId: b.sessionId, idempotencyKey: KEY } },
  });

  // the rule fires on tap-b's next prompt with that key: it leaves the armed list, and says when and where
  b.send({
    id: 3,
    method: "session/prompt",
    params: { sessionId: b.sessionId, prompt: [{ type: "text", text: "again" }], idempotencyKey: KEY },
  });
  await expect(armed).toContainText("No fault armed");
  // only the last rule that fired, in one line (not a pile of old firings)
  const fired = armed.getByTestId("last-fired");
  await expect(fired).toHaveCount(1);
  await expect(fired).toContainText(
    /Last fired: Drop the next session\/prompt response in session .* · fired at \d\d:\d\d:\d\d on tap tap-b/,
  );
  await expect(page.locator("output.notice-line")).toContainText("fired at");
  await shoot(page, "fired");

  // the ⋯ button: "Delay…" fills the toolbar's form for the user to finish, and focuses the delay
  await row.getByRole("button", { name: "Faults for this row" }).click();
  await menu.getByRole("menuitem", { name: "Delay the next response of this key…" }).click();
  await expect(fx(page).getByLabel("Session", { exact: true })).toHaveValue(b.sessionId);
  await expect(fx(page).getByLabel("Key", { exact: true })).toHaveValue(KEY);
  await expect(fx(page).getByLabel("Frame", { exact: true })).toHaveValue("response");
  await expect(fx(page).getByLabel("Delay ms")).toBeFocused();

  // keyboard: the selected row's menu opens with Shift+F10, arrows move, Escape closes
  await row.click();
  await grid.press("Shift+F10");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").nth(1)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(grid).toBeFocused();
  expect(problems).toEqual([]);
});
