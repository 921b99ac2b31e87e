/**
 * `export --html`: a trace recorded through the real tap (demo-client, demo-agent, an inspector
 * retry after a lost answer) saved as one page, opened from `file://` with every network request
 * refused, shows the same Timeline as the served app showing the same export, and nothing else:
 * no hub, no faults, no console errors or CSP violations. Screenshots at 1280x720 and 1600x1000,
 * light and dark, are saved with the test's output.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

const PROMPT = "deploy it </script><script>window.__pwned=1</script>";
let dir: string;
let hub: ServeProcess;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-saved-page-"));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [cliPath, ...args], { cwd: dir, stdio: "pipe" });
  cli(
    "demo-client",
    "--prompt",
    PROMPT,
    "--json",
    "--",
    process.execPath,
    cliPath,
    "proxy",
    "--no-hub",
    "--fault",
    "lose-and-retry:method=session/prompt",
    "--trace",
    join(dir, "T.jsonl"),
    "--",
    process.execPath,
    cliPath,
    "demo-agent",
    "--store",
    join(dir, "S"),
  );
  cli("export", join(dir, "T.jsonl"), "-o", join(dir, "T-redacted.jsonl"));
  cli("export", join(dir, "T.jsonl"), "--html", "-o", join(dir, "T.html"));
  cli("export", join(dir, "T.jsonl"), "--html", "--full", "-o", join(dir, "T-full.html"));
  hub = await startServe();
});
test.afterAll(async () => {
  await hub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The Timeline's rows as text, the submission opened. */
async function timelineRows(page: Page): Promise<string[]> {
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  const submission = grid.getByRole("row").filter({ hasText: "deduplicated" }).first();
  await expect(submission).toBeVisible();
  await submission.click();
  await page.keyboard.press("ArrowRight");
  await expect(submission).toHaveAttribute("aria-expanded", "true");
  return (await grid.getByRole("row").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Refuses every request that is not the page's own file. */
async function offline(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.context().route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file://")) return route.continue();
    asked.push(url);
    return route.abort();
  });
  return asked;
}

test("a saved page opens from file:// with the network refused and shows the same Timeline as the app", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // The served app, showing the redacted export of the same trace.
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: "T.jsonl",
    mimeType: "application/octet-stream",
    buffer: readFileSync(join(dir, "T-redacted.jsonl")),
  });
  const served = await timelineRows(page);
  // The app's own "Export as page" writes the same kind of page.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export as page" }).click();
  await (await download).saveAs(join(dir, "from-app.html"));
  await expect(page.getByRole("status").filter({ hasText: "Export as page: saved" })).toBeVisible();

  const problems = guardConsole(page);
  const asked = await offline(page);
  await page.goto(`file://${join(dir, "T.html")}`);
  const status = page.getByRole("status", { name: "Connection" });
  await expect(status).toContainText("saved page");
  await expect(
    page.getByRole("status").filter({ hasText: "Saved page of T.jsonl (redacted)" }),
  ).toBeVisible();
  const saved = await timelineRows(page);
  expect(saved).toEqual(served);
  // The prompt is redacted; no fault drawer (no hub, no tap to arm on).
  await expect(page.getByRole("treegrid", { name: "Timeline" })).not.toContainText("deploy it");
  await expect(page.locator('[aria-controls="fault-drawer"]')).toHaveCount(0);
  await expect(page.locator("#fault-drawer")).toHaveCount(0);
  for (const theme of ["light", "dark"] as const) {
    if ((await page.locator("html").getAttribute("data-theme")) !== theme)
      await page.getByRole("button", { name: "Dark theme" }).click();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath(`saved-page-${theme}-1280x720.png`) });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.screenshot({ path: test.info().outputPath(`saved-page-${theme}-1600x1000.png`) });
  }
  // The page the app exported shows the same rows (its trace is the redacted export of the import).
  await page.goto(`file://${join(dir, "from-app.html")}`);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("saved page");
  expect(await timelineRows(page)).toEqual(served);
  expect(asked).toEqual([]);
  expect(problems).toEqual([]);
});

test("a full saved page shows the prompt as text: the wire's markup never runs", async ({ page }) => {
  const problems = guardConsole(page);
  const asked = await offline(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`file://${join(dir, "T-full.html")}`);
  await expect(page.getByRole("status").filter({ hasText: "Saved page of T.jsonl (full)" })).toBeVisible();
  await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("deploy it </script>");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(asked).toEqual([]);
  expect(problems).toEqual([]);
});
