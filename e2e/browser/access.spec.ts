import { expect, type Request, test } from "@playwright/test";
import { type Bystander, startBystander } from "../harness/bystander-server.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

let hub: ServeProcess;
let bystander: Bystander;
test.beforeAll(async () => {
  hub = await startServe();
});
test.beforeEach(async () => {
  bystander = await startBystander();
});
test.afterEach(async () => {
  await bystander.close();
});
test.afterAll(async () => {
  await hub.stop();
});

test("without the token the page only says where the link comes from, and the API refuses", async ({
  page,
}) => {
  const bare = await page.goto(hub.bareUrl);
  expect(bare?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This page needs its access token" })).toBeVisible();
  await expect(page.getByText("http://127.0.0.1:PORT/#token=…")).toBeVisible();
  await expect(page.getByRole("button", { name: "Kill agent" })).toHaveCount(0);
  expect((await page.request.get(`${hub.bareUrl}api/faults`)).status()).toBe(401);

  // A wrong token in the fragment: the hub refuses it and the page says so.
  await page.goto(`${hub.bareUrl}#token=not-the-token`);
  await expect(page.getByRole("heading", { name: "The inspector refused this link's token" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveCount(0);

  // The old link form, the token in the query: refused even with the right token, naming the new form.
  const old = await page.goto(`${hub.bareUrl}?token=${hub.token}`);
  expect(old?.status()).toBe(400);
  await expect(page.locator("body")).toContainText("#token=");
});

test("loads with the token, removes it from the address bar, never sends it in a URL or a cookie, and survives a reload", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  const requests: Request[] = [];
  page.on("request", (r) => requests.push(r));
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  const loaded = await page.goto(hub.url);
  expect(loaded?.headers()["content-security-policy"]).toContain(
    `connect-src 'self' ws://127.0.0.1:${hub.port} ws://localhost:${hub.port};`,
  );
  expect(loaded?.headers()["set-cookie"]).toBeUndefined();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  expect(page.url()).toBe(hub.bareUrl);
  await expect(page.getByRole("tab", { name: "Timeline" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "No frames yet" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Agent stderr" })).toContainText("Nothing yet");
  await page.screenshot({ path: testInfo.outputPath("main-view-empty.png") });

  await page.reload();
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  expect(page.url()).toBe(hub.bareUrl);

  // What reached the wire: the socket (its token went as a subprotocol), assets, no cookie anywhere.
  expect(sockets.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sockets)).toEqual(new Set([`ws://127.0.0.1:${hub.port}/ws/ui`]));
  expect(requests.length).toBeGreaterThan(2);
  for (const r of requests) {
    const headers = await r.allHeaders();
    expect({ url: r.url(), cookie: headers.cookie, token: r.url().includes(hub.token) }).toEqual({
      url: r.url(),
      cookie: undefined,
      token: false,
    });
    expect(headers.referer ?? "").not.toContain(hub.token);
  }
  expect(await page.context().cookies()).toEqual([]);
  expect(problems).toEqual([]);
});

test("a server on another port of 127.0.0.1 receives no credential after the UI was opened, and its pages get nothing in", async ({
  page,
}) => {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");

  // The same browser then visits a local dev server: page, stylesheet, image.
  await page.goto(`${bystander.origin}/`);
  await expect(page.getByRole("heading", { name: "Some dev server" })).toBeVisible();
  // A page there tries what a hostile one would: a simple cross-origin post that needs no preflight.
  // (The hub answers 403 for the foreign Origin, and its CORP header hides even that from the page.)
  await page.evaluate(
    (hubOrigin) =>
      fetch(`${hubOrigin}/api/faults`, {
        method: "POST",
        mode: "no-cors",
        credentials: "include",
        headers: { "Content-Type": "text/plain" },
        body: JSON.stringify({ action: "kill-agent" }),
      }).then(
        (r) => r.type,
        (e: unknown) => String(e),
      ),
    hub.bareUrl.replace(/\/$/, ""),
  );

  await expect
    .poll(() => bystander.seen.map((r) => r.url))
    .toEqual(expect.arrayContaining(["/", "/logo.png", "/style.css"]));
  for (const r of bystander.seen) {
    expect({ url: r.url, cookie: r.headers.cookie, authorization: r.headers.authorization }).toEqual({
      url: r.url,
      cookie: undefined,
      authorization: undefined,
    });
  }
  expect(JSON.stringify(bystander.seen)).not.toContain(hub.token);
  expect(await page.context().cookies()).toEqual([]);

  // A WebSocket from there, offering the hub's protocol: refused for its Origin, never opened.
  const socket = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(url, ["acp-ri.v1"]);
        ws.onopen = () => resolve("opened");
        ws.onclose = () => resolve("refused");
      }),
    `ws://127.0.0.1:${hub.port}/ws/ui`,
  );
  expect(socket).toBe("refused");
  // A plain form post, which browsers send across sites without asking: refused too.
  const navigated = page.waitForURL(`${hub.bareUrl}api/faults`);
  await page.evaluate((action) => {
    const form = document.createElement("form");
    form.method = "POST";
    form.action = action;
    form.enctype = "text/plain";
    const field = document.createElement("input");
    field.name = '{"action":"kill-agent","x":"';
    field.value = '"}';
    form.append(field);
    document.body.append(form);
    form.submit();
  }, `${hub.bareUrl}api/faults`);
  await navigated;
  await expect(page.locator("body")).toContainText("Origin is not this hub");

  const rules = await hub.cli(["fault", "list", "--json"]);
  expect(JSON.parse(rules.stdout).rules).toEqual([]);
});

test("the page can connect to its own hub only: the CSP blocks any other port", async ({ page }) => {
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  const outcome = await page.evaluate(async (other) => {
    const fetched = await fetch(`${other}/leak-fetch`).then(
      () => "reached",
      () => "blocked",
    );
    const socket = await new Promise<string>((resolve) => {
      try {
        const ws = new WebSocket(`${other.replace(/^http/, "ws")}/leak-socket`);
        ws.onopen = () => resolve("reached");
        ws.onerror = () => resolve("blocked");
      } catch {
        resolve("blocked");
      }
    });
    return { fetched, socket };
  }, bystander.origin);
  expect(outcome).toEqual({ fetched: "blocked", socket: "blocked" });
  expect(bystander.seen).toEqual([]);
});

test("the theme toggle switches between dark and light and is remembered", async ({ page }) => {
  const problems = guardConsole(page);
  await page.goto(hub.url);
  const html = page.locator("html");
  const toggle = page.getByRole("button", { name: "Dark theme" });
  const startDark = (await html.getAttribute("data-theme")) === "dark";
  await expect(toggle).toHaveAttribute("aria-pressed", String(startDark));
  const bgBefore = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await toggle.click();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(bgBefore);
  await page.getByRole("button", { name: "Large text" }).click();
  await expect(html).toHaveAttribute("data-text", "large");
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", startDark ? "light" : "dark");
  await page.getByRole("button", { name: "Large text" }).click();
  expect(problems).toEqual([]);
});
