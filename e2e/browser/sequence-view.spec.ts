import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { type SequencePreview, startSequencePreview } from "../sequence/preview-build.js";
import { HOSTILE_MESSAGE, longTrace, retryStory } from "../sequence/preview-traces.js";

let preview: SequencePreview;
let consoleProblems: string[];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  preview = await startSequencePreview();
  await preview.addTrace("trace", retryStory());
  await preview.addTrace("long", longTrace(3000));
});
test.afterAll(async () => {
  await preview?.close();
});
test.beforeEach(async ({ page }) => {
  // CSP violations, React warnings and uncaught errors fail the test that caused them.
  consoleProblems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => consoleProblems.push(`pageerror: ${e.message}`));
});
test.afterEach(() => {
  expect(consoleProblems).toEqual([]);
});

async function open(page: Page, trace = "trace") {
  await page.goto(`${preview.url}?trace=${trace}`);
  const view = page.getByRole("region", { name: "Sequence diagram" });
  await expect(view.getByRole("group", { name: "Frames" })).toBeVisible();
  return view;
}

test("draws arrows, the crossed-out dropped frame and the connection break, and selects on click", async ({
  page,
}, testInfo) => {
  const view = await open(page);
  await expect(view.getByRole("img", { name: "Lanes: Client, Inspector, Agent" })).toBeVisible();

  const prompt = view.getByRole("button", {
    name: /^request session\/prompt\s+id 1\s+key 5f0c7b1e…5c6d7e, client to agent, frame #5,/,
  });
  await expect(prompt).toBeVisible();
  await expect(
    view.getByRole("button", { name: /^response messageId m1, agent to client, frame #28,/ }),
  ).toBeVisible();
  await expect(
    view.getByRole("button", { name: /^notification session\/update\s+user_message\s+messageId m1/ }),
  ).toBeVisible();
  await expect(
    // a collapsed burst says its count, its size and its frames
    view.getByRole("button", { name: /^12 session\/update notifications, [\d.]+ k?B, frames #7–#18/ }),
  ).toBeVisible();

  // Dropped frames end at the Inspector lane under an ✕ (two crossing strokes), with no arrowhead.
  const droppedRequest = view.getByRole("button", { name: /client to inspector \(dropped\), frame #23,/ });
  await expect(droppedRequest).toBeVisible();
  await expect(droppedRequest.locator("line.seq-s-error")).toHaveCount(2);
  await expect(droppedRequest.locator("path")).toHaveCount(0);
  await expect(droppedRequest).toContainText("✕ session/prompt");
  const droppedResponse = view.getByRole("button", {
    name: /^response messageId m1, agent to inspector \(dropped\), frame #26,/,
  });
  await expect(droppedResponse.locator("line.seq-s-error")).toHaveCount(2);
  await expect(prompt.locator("line.seq-s-error")).toHaveCount(0);

  // Breaks, restarts, faults and idle time are horizontal markers.
  for (const name of [
    "connection #1 closed: client disconnected",
    "agent 100 exited (SIGKILL)",
    "agent 101 started",
    "connection #2 opened (stdio)",
    "fault: drop-request on frame #23 (rule r1)",
    "idle for 3.2 s",
  ]) {
    await expect(view.getByRole("separator", { name, exact: true })).toBeVisible();
  }

  // Wire text is text: the hostile error message is shown, never run.
  await expect(view.getByRole("button", { name: /^response error -32602\s+<script>/ })).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  await prompt.click();
  await expect(page.getByRole("status", { name: "Selection" })).toHaveText("selected frame #5");
  await expect(prompt).toHaveAttribute("aria-pressed", "true");
  await droppedRequest.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status", { name: "Selection" })).toHaveText("selected frame #23");
  await expect(prompt).toHaveAttribute("aria-pressed", "false");

  const shot = testInfo.outputPath("sequence-view.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("sequence-view", { path: shot, contentType: "image/png" });
});

test("Export SVG downloads a standalone SVG that parses, with the wire text escaped", async ({ page }) => {
  const view = await open(page);
  const downloading = page.waitForEvent("download");
  await view.getByRole("button", { name: "Export SVG" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("acp-sequence.svg");
  const svg = await readFile((await download.path()) as string, "utf8");
  expect(svg).not.toContain("<script");
  expect(svg).toContain("&lt;script&gt;");
  expect(svg).not.toMatch(/class=|var\(--/);

  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    return {
      errors: doc.getElementsByTagName("parsererror").length,
      root: doc.documentElement.nodeName,
      scripts: doc.getElementsByTagName("script").length,
      texts: [...doc.getElementsByTagName("text")].map((t) => t.textContent ?? ""),
    };
  }, svg);
  expect(parsed.errors).toBe(0);
  expect(parsed.root).toBe("svg");
  expect(parsed.scripts).toBe(0);
  expect(parsed.texts).toContain("Inspector");
  expect(parsed.texts.some((t) => t.includes(`error -32602  ${HOSTILE_MESSAGE}`))).toBe(true);
  expect(parsed.texts.some((t) => t.includes("connection #1 closed: client disconnected"))).toBe(true);
  await expect(view.getByRole("status")).toHaveText(/Exported rows 1–\d+ as SVG/);
});

test("Export PNG draws the rows on screen onto a canvas and downloads a PNG", async ({ page }) => {
  const view = await open(page);
  const downloading = page.waitForEvent("download");
  await view.getByRole("button", { name: "Export PNG" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("acp-sequence.png");
  const png = await readFile((await download.path()) as string);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.length).toBeGreaterThan(5_000);
  await expect(view.getByRole("status")).toHaveText(/Exported rows 1–\d+ as PNG/);
});

test("renders only the rows on screen of a 6,000-frame trace", async ({ page }) => {
  const view = await open(page, "long");
  await expect(view.getByText(/of 6000 · 6000 frames/)).toBeVisible();
  const frames = view.getByRole("group", { name: "Frames" });
  const rendered = await frames.getByRole("button").count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(80);

  await page.locator(".seq__scroll").evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(frames.getByRole("button", { name: /frame #6000,/ })).toBeVisible();
  await expect(frames.getByRole("button", { name: /frame #1,/ })).toHaveCount(0);
  expect(await frames.getByRole("button").count()).toBeLessThan(80);
});
