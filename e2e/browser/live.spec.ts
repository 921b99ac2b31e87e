import { expect, test } from "@playwright/test";
import { createHubLink, type HubLink } from "../../electron/tap/hub-link/hub-link.js";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { shownTrace } from "../harness/trace-picker.js";
import { sessionTrace } from "../harness/traces.js";

let hub: ServeProcess;
let link: HubLink | undefined;
test.beforeEach(async () => {
  hub = await startServe();
});
test.afterEach(async () => {
  await link?.close(2_000);
  link = undefined;
  await hub.stop();
});

/** A tap's link to the hub (the same code the proxy uses), streaming a script's records. */
function tap(script: TraceScript): HubLink {
  link = createHubLink({
    header: { ...script.header(), agent: { command: ["demo-agent", "--fast"] } },
    hub: { port: hub.port, token: hub.token },
  });
  return link;
}

test("live records stream into the timeline of the newest tap; pause holds them until resumed", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const script = sessionTrace();
  const l = tap(script);
  const records = script.records;
  for (const r of records.slice(0, 12)) l.send(r);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(shownTrace(page)).toHaveAccessibleName(/^Shown trace: demo-agent, live, started /);
  await expect(grid.getByRole("row").filter({ hasText: "write a haiku" })).toContainText("deduplicated");
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("agent pid 4242 running");

  await page.getByRole("button", { name: "Pause" }).click();
  for (const r of records.slice(12)) l.send(r);
  await expect(page.getByText(`${records.length - 12} events waiting`)).toBeVisible();
  await expect(grid.getByRole("row").filter({ hasText: "deploy" })).toHaveCount(0);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(grid.getByRole("row").filter({ hasText: "deploy" })).toContainText("duplicate-insert");
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("inserted msg-2");
  await page.screenshot({ path: testInfo.outputPath("main-view-live.png") });
  expect(problems).toEqual([]);
});

test("a long live list renders only visible rows and follows the tail only while at the bottom", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const script = new TraceScript().open(1);
  const ROWS = 3_000;
  for (let i = 1; i <= ROWS; i++) script.request(1, "client->agent", i, "session/list", { cursor: `c${i}` });
  const l = tap(script);
  for (const r of script.records) l.send(r);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid).toHaveAttribute("aria-rowcount", String(ROWS + 1));
  const rendered = await grid.getByRole("row").count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(100);
  // The rows are told apart by their JSON-RPC ids: the Ids column is folded away by default, so tick it.
  await page.getByRole("button", { name: /^Columns/ }).click();
  await page.getByRole("group", { name: "Columns of the Timeline" }).getByLabel("Ids").check();
  await page.keyboard.press("Escape");
  // Following the tail: the newest row is on screen, and a newer one scrolls into view too.
  await expect(
    grid
      .getByRole("row")
      .filter({ hasText: String(ROWS) })
      .last(),
  ).toBeVisible();
  script.request(1, "client->agent", ROWS + 1, "session/list", { cursor: "next" });
  l.send(script.records.at(-1)!);
  await expect(grid.getByRole("row").filter({ hasText: String(ROWS + 1) })).toBeVisible();
  // While following, a live step mounts only rows that reach into the view: none wholly above it.
  const above = await page.locator(".vtable").evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return [...el.querySelectorAll("tbody tr")].filter((r) => r.getBoundingClientRect().bottom <= top).length;
  });
  expect(above).toBe(0);

  // Scrolled up: new rows must not pull the view back to the bottom.
  await page.locator(".vtable").evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(grid.getByRole("row").filter({ hasText: "session/list" }).first()).toBeVisible();
  // Scrolled away from the tail, rows are mounted ahead below the view again (no blank rows on the next scroll).
  const below = await page.locator(".vtable").evaluate((el) => {
    const bottom = el.getBoundingClientRect().bottom;
    return [...el.querySelectorAll("tbody tr")].filter((r) => r.getBoundingClientRect().top >= bottom).length;
  });
  expect(below).toBeGreaterThan(0);
  script.request(1, "client->agent", ROWS + 2, "session/list", { cursor: "later" });
  l.send(script.records.at(-1)!);
  await expect(grid).toHaveAttribute("aria-rowcount", String(ROWS + 3));
  expect(await page.locator(".vtable").evaluate((el) => el.scrollTop)).toBe(0);
  expect(problems).toEqual([]);
});

test("a live publish rewrites only what changed: no form field, and no bar while the window grows inside its track", async ({
  page,
}) => {
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1600, height: 1000 }); // every row on screen
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  // One request a second, each answered 100 ms later: after n of them the window is (n - 1) s + 100 ms.
  const script = new TraceScript().open(1);
  const l = tap(script);
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  let sent = 0;
  const publish = async (from: number, to: number) => {
    for (let i = from; i <= to; i++) {
      script.request(1, "client->agent", i, "session/list", { cursor: `c${i}` });
      script.wait(99).result(1, "agent->client", i, { sessions: [] });
      script.wait(899);
    }
    for (const r of script.records.slice(sent)) l.send(r);
    sent = script.records.length;
    await expect(grid).toHaveAttribute("aria-rowcount", String(to + 1));
    await expect(page.locator(".trace-size")).toHaveText(`${sent} records`);
  };
  await publish(1, 12); // an 11.1 s window, drawn on a 15 s track
  const bar = grid.locator(".wf__bar").first();
  await expect(bar).toHaveAttribute("style", /left: 0%; width: 0\.6{3,}\d*%/);
  // the header names the track the bars are drawn on
  const track = grid.getByRole("columnheader", { name: "Waterfall" }).locator(".vtable__th-note");
  await expect(track).toHaveText("0–15 s");
  await page.evaluate(() => {
    // The bars shown now: a new row's bar may change (pending, then answered), these must not.
    for (const b of document.querySelectorAll<HTMLElement>(".wf__bar")) b.dataset.shown = "";
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target as Element;
        if (el.matches("input, select, textarea")) seen.push(`${el.tagName} ${m.attributeName}`);
        if (el.matches(".wf__bar[data-shown]") && m.attributeName === "style")
          seen.push(`bar ${el.getAttribute("style")}`);
      }
    }).observe(document.body, { subtree: true, attributes: true });
  });
  const seen = () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen.splice(0));
  await publish(13, 14); // 13.1 s: the same track
  expect(await seen()).toEqual([]);
  await expect(track).toHaveText("0–15 s");
  await publish(15, 17); // 16.1 s: the next step (20 s) moves every bar once
  await expect(bar).toHaveAttribute("style", /left: 0%; width: 0\.5%/);
  await expect(track).toHaveText("0–20 s");
  expect((await seen()).filter((s) => s.startsWith("bar ")).length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});
