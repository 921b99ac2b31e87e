/**
 * `npm run bench:ui -- foreign-import`: another tool's trace of about 100 MB imported in the UI
 * (issue 15: foreign formats are read whole, only our own format streams). For each of the four
 * formats, a file is made from its fixture (e2e/fixtures/imports/) plus about 200k agent
 * notifications, and imported in a fresh tab of a real `serve`: the time to the import's
 * "… records" notice, the tab's peak JS heap, the renderer's peak RSS, and the longest task that
 * held the tab's main thread (PerformanceObserver `longtask`). Set FOREIGN_IMPORT_MB for another size.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { projectRoot } from "../harness/build-once.js";
import { startServe } from "../harness/serve-process.js";
import { MB, TabMemory } from "./tab-memory.js";

const TARGET = Number(process.env.FOREIGN_IMPORT_MB ?? 100) * MB;
const FIXTURES = join(projectRoot, "e2e", "fixtures", "imports");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const filler = "x".repeat(200);
const chunk = (sessionId: string, i: number) => ({
  sessionId,
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i} ${filler}` } },
});

/** Lines until `TARGET` bytes, after the fixture's own lines. */
function lineFile(head: string, line: (i: number) => string): string {
  const parts = [head.trimEnd()];
  let n = head.length;
  for (let i = 1; n < TARGET; i++) {
    const l = line(i);
    parts.push(l);
    n += l.length + 1;
  }
  return `${parts.join("\n")}\n`;
}

const FORMATS: { name: string; file: string; make: () => string }[] = [
  {
    name: "sacp .jsons",
    file: "big.jsons",
    make: () =>
      lineFile(fixture("sacp-trace.jsons"), (i) =>
        JSON.stringify({
          type: "notification",
          ts: 1 + i * 1e-5,
          protocol: "acp",
          from: "agent",
          to: "client",
          method: "session/update",
          session: "sess-sacp-1",
          params: chunk("sess-sacp-1", i),
        }),
      ),
  },
  {
    name: "ACP-inspector JSONL",
    file: "big-inspector.jsonl",
    make: () =>
      lineFile(fixture("acp-inspector.jsonl"), (i) =>
        JSON.stringify({
          ts: "2026-11-30T09:20:00.000Z",
          direction: "fromAgent",
          json: JSON.stringify({
            jsonrpc: "2.0",
            method: "session/update",
            params: chunk("ses-20261130-001", i),
          }),
        }),
      ),
  },
  {
    name: "Zed Copy All",
    file: "big-zed.json",
    make: () => {
      const arr = JSON.parse(fixture("zed-copy-all.json")) as unknown[];
      let n = 0;
      for (let i = 1; n < TARGET; i++) {
        const e = {
          _direction: "incoming",
          _type: "notification",
          id: null,
          method: "session/update",
          params: chunk("sess-zed-1", i),
        };
        arr.push(e);
        n += JSON.stringify(e).length + 40;
      }
      return JSON.stringify(arr, null, 2);
    },
  },
  {
    name: "HAR (WebSocket)",
    file: "big.har",
    make: () => {
      const har = JSON.parse(fixture("chrome-websocket.har")) as {
        log: { entries: { _webSocketMessages?: { time: number }[] }[] };
      };
      const ws = har.log.entries.filter((e) => e._webSocketMessages).at(-1);
      const msgs = ws?._webSocketMessages ?? [];
      const t = msgs.at(-1)?.time ?? 0;
      let n = 0;
      for (let i = 1; n < TARGET; i++) {
        const data = JSON.stringify({
          jsonrpc: "2.0",
          method: "session/update",
          params: chunk("sess-ws-1", i),
        });
        msgs.push({ type: "receive", time: t + i * 1e-5, opcode: 1, data } as never);
        n += data.length + 60;
      }
      return JSON.stringify(har);
    },
  },
];

for (const format of FORMATS) {
  test(`foreign import: ${format.name}, ~${TARGET / MB} MB`, async ({ browser }) => {
    const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-foreign-"));
    const hub = await startServe();
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const file = join(dir, format.file);
      const text = format.make();
      writeFileSync(file, text);
      const bytes = Buffer.byteLength(text);
      let crashed = false;
      page.on("crash", () => {
        crashed = true;
      });
      await page.goto(hub.url);
      await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
      await page.evaluate(() => {
        const w = window as unknown as { __longest: number; __tasks: number };
        w.__longest = 0;
        w.__tasks = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            w.__longest = Math.max(w.__longest, e.duration);
            w.__tasks++;
          }
        }).observe({ type: "longtask", buffered: false });
      });
      const memory = await TabMemory.open(page, browser);
      memory.sampleEvery(250);
      const t0 = Date.now();
      await page.getByLabel("Import trace file").setInputFiles(file);
      await expect(page.getByRole("status").filter({ hasText: `Import ${format.file}` })).toContainText(
        "records",
        {
          timeout: 200_000,
        },
      );
      const seconds = (Date.now() - t0) / 1000;
      memory.stop();
      const peak = await memory.peak();
      const { longest, tasks } = await page.evaluate(() => {
        const w = window as unknown as { __longest: number; __tasks: number };
        return { longest: w.__longest, tasks: w.__tasks };
      });
      const notice = await page
        .getByRole("status")
        .filter({ hasText: `Import ${format.file}` })
        .textContent();
      process.stdout.write(
        `${format.name}: ${(bytes / MB).toFixed(0)} MB imported in ${seconds.toFixed(1)} s; peak JS heap ${(peak.jsHeapUsed / MB).toFixed(0)} MB, renderer peak RSS ${(peak.rendererRss / MB).toFixed(0)} MB; longest main-thread task ${(longest / 1000).toFixed(1)} s (${tasks} tasks over 50 ms); crashed: ${crashed}; notice: ${(notice ?? "").replace(/\s+/g, " ").slice(0, 160)}\n`,
      );
      expect(crashed).toBe(false);
    } finally {
      await context.close();
      await hub.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
