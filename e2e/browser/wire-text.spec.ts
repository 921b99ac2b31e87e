/**
 * Issue 31 item 9 in the browser: bidirectional overrides and isolates, C1 and C0 controls from a
 * trace file (header fields, agent command, methods, session ids, keys, prompts, error texts,
 * stderr, a malformed line, an agent span) and from the import's file name are shown as visible
 * markers (`⟦U+202E⟧`) on every surface the page draws: the text of each view and of the Details
 * pane, the trace picker and its list, the notice, and every tooltip and accessible name. The walk
 * reads the DOM, so a surface that forgets `visibleText` fails here whichever component it is.
 */
import { expect, type Page, test } from "@playwright/test";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";
import { pickTrace, shownTrace } from "../harness/trace-picker.js";

let hub: ServeProcess;
test.beforeAll(async () => {
  hub = await startServe();
});
test.afterAll(async () => {
  await hub.stop();
});

const RLO = "\u202E";
const LRI = "\u2066";
const C1 = "\u0085";
const ESC = "\u001b";

/** A trace with a hidden control in every field a peer or a file controls. */
function hostileTrace(): string {
  const script = new TraceScript()
    .spawn(4545, [`/opt/ev${RLO}il/agent`, `--mode${C1}x`])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .request(1, "client->agent", 1, "session/new", { cwd: "/w" })
    .result(1, "agent->client", 1, { sessionId: `sess${RLO}-9` })
    .prompt(1, 2, `sess${RLO}-9`, `pay ${RLO}001$ ot`, `key-${RLO}bidi-01`)
    .error(1, 2, -32603, `failed ${RLO}gnivas${ESC}[2J`)
    .prompt(1, 3, `sess${RLO}-9`, `pay ${RLO}001$ ot`, `key-${RLO}bidi-01`)
    .inserted(1, 3, `msg${LRI}-1`)
    .request(1, "client->agent", 4, `ext/${RLO}dohtem`, { sessionId: `sess${RLO}-9` })
    .error(1, 4, -32601, `no method ${C1}here`)
    .raw(1, "agent->client", `not json ${RLO}txet`)
    .stderr(4545, `saved ${RLO}fdp.exe`)
    .record({
      type: "agent-span",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      name: `tool ${RLO}llac`,
      startMs: 1_700_000_000_005,
      endMs: 1_700_000_000_009,
      attributes: { [`attr${RLO}`]: `value ${RLO}eulav` },
      status: "error",
      statusMessage: `span ${RLO}rorre`,
      service: `svc${RLO}`,
      conn: 1,
    })
    .close(1, `client ${RLO}enog`);
  const header = {
    ...script.header(),
    tool: `tool ${RLO}loot`,
    name: `tap ${RLO}eman`,
    agent: { command: [`/opt/ev${RLO}il/agent`, `--mode${C1}x`], cwd: `/w/${RLO}dwc` },
    imported: { format: `har${RLO}x`, lacks: [] },
  };
  const [, ...records] = script.jsonl().split("\n");
  return [JSON.stringify(header), ...records].join("\n");
}

/** Every hidden control the page shows: in text nodes, tooltips, accessible names, placeholders and input values. */
async function hiddenControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The same characters as renderer/model/text/visible-text.ts (the page cannot import it here).
    const hidden =
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const found: string[] = [];
    const where = (el: Element | null) => {
      const parts: string[] = [];
      for (let e = el; e && parts.length < 4; e = e.parentElement)
        parts.push(
          `${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ? `.${e.className.split(" ")[0]}` : ""}`,
        );
      return parts.join(" < ");
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      if (hidden.test(n.nodeValue ?? ""))
        found.push(`text in ${where(n.parentElement)}: ${JSON.stringify(n.nodeValue?.slice(0, 80))}`);
    for (const el of document.body.querySelectorAll("*")) {
      for (const attr of ["title", "aria-label", "placeholder", "aria-description", "alt"]) {
        const v = el.getAttribute(attr);
        if (v && hidden.test(v)) found.push(`${attr} of ${where(el)}: ${JSON.stringify(v.slice(0, 80))}`);
      }
      if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && hidden.test(el.value))
        found.push(`value of ${where(el)}: ${JSON.stringify(el.value.slice(0, 80))}`);
    }
    return found;
  });
}

test("hidden controls from a trace and its file name show as markers on every surface", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await page.getByLabel("Import trace file").setInputFiles({
    name: `ev${RLO}il.jsonl`,
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(hostileTrace()),
  });
  const grid = page.getByRole("treegrid", { name: "Timeline" });
  await expect(grid).toContainText("pay ⟦U+202E⟧001$ ot");
  // Each place once, named by the first view it was seen in.
  const seen = new Map<string, string>();
  const look = async (what: string) => {
    for (const f of await hiddenControls(page)) if (!seen.has(f)) seen.set(f, what);
  };
  await look("timeline");
  await page.screenshot({ path: testInfo.outputPath("wire-text-1600x1000.png") });
  // The Details pane of each row.
  const rows = grid.getByRole("row");
  const count = await rows.count();
  for (let i = 1; i < count; i++) {
    await rows.nth(i).click();
    await look(`details of row ${i}`);
  }
  await page.screenshot({ path: testInfo.outputPath("wire-text-details-1600x1000.png") });
  for (const tab of ["Records", "Sequence"]) {
    await page.getByRole("tab", { name: tab }).click();
    await look(tab);
    await page.screenshot({ path: testInfo.outputPath(`wire-text-${tab.toLowerCase()}-1600x1000.png`) });
  }
  await shownTrace(page).click();
  await expect(page.getByRole("listbox", { name: "Traces" })).toBeVisible();
  await look("trace list");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: testInfo.outputPath("wire-text-list-1280x720.png") });
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: "Timeline" }).click();
  // The search box's suggestions offer the trace's own values.
  const search = page
    .getByRole("search", { name: "Timeline filters" })
    .getByRole("searchbox", { name: "Search" });
  for (const field of ["session:", "key:", "method:ext"]) {
    await search.fill(field);
    await expect(page.getByRole("listbox", { name: "Suggestions" })).toBeVisible();
    await look(`suggestions for ${field}`);
  }
  await search.fill("");
  // A record that is not a frame (the agent's stderr line) in the Details pane.
  await page.getByRole("tab", { name: "Records" }).click();
  await page
    .getByRole("grid", { name: "Trace records" })
    .getByRole("row")
    .filter({ hasText: "fdp.exe" })
    .click();
  await look("details of the stderr record");
  await page.getByRole("tab", { name: "Timeline" }).click();
  await page.screenshot({ path: testInfo.outputPath("wire-text-1280x720.png") });
  expect([...seen].map(([f, what]) => `${what}: ${f}`)).toEqual([]);
  expect(problems).toEqual([]);
});

test("a live tap's hostile name shows as markers in the picker, the fault target and the armed rule", async ({
  page,
}, testInfo) => {
  const problems = guardConsole(page);
  hub.spawnDemoTap(`live ${RLO}pat${C1}`);
  await page.goto(hub.url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  await pickTrace(page, "live ⟦U+202E⟧pat⟦U+0085⟧");
  await page.getByRole("button", { name: "Faults", exact: true }).click(); // the drawer starts closed
  const faults = page.getByRole("group", { name: "Fault injection" });
  await expect(faults.getByLabel("Arm on", { exact: true })).toContainText("tap live ⟦U+202E⟧pat⟦U+0085⟧");
  await page.getByRole("button", { name: "Drop next response" }).click();
  const armed = page.getByRole("region", { name: "Armed fault rules" });
  await expect(armed).toContainText("Drop the next session/prompt response");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: testInfo.outputPath("wire-text-live-1280x720.png") });
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.screenshot({ path: testInfo.outputPath("wire-text-live-1600x1000.png") });
  const seen = await hiddenControls(page);
  await shownTrace(page).click();
  seen.push(...(await hiddenControls(page)));
  expect([...new Set(seen)]).toEqual([]);
  expect(problems).toEqual([]);
});
