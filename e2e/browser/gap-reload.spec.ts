/**
 * A window that joins after the hub's ring dropped events reloads the trace from the hub's file:
 * a real `serve --ring-size 50`, a real `proxy` in front of the real demo agent driven over its
 * stdio, more records than the ring holds before the page opens, then live records on top.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { expect, test } from "@playwright/test";
import { decodeLines, splitTraceText } from "../../renderer/model/traces/trace-file.js";
import { cliPath } from "../harness/build-once.js";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

const RING = 50;

let hub: ServeProcess;
test.beforeEach(async () => {
  hub = await startServe(15_000, ["--ring-size", String(RING)]);
});
test.afterEach(async () => {
  await hub.stop();
});

/** A client speaking to `proxy -- demo-agent` over its stdio, one JSON-RPC request per line. */
class ProxyClient {
  private nextId = 0;
  private answers = 0;
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", () => {
      this.answers++;
      for (const w of [...this.waiters])
        if (this.answers >= w.count) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
    });
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** Sends `initialize`, then `count` requests the agent answers (`session/list` is not one it knows: an error). */
  send(count: number): void {
    const lines: string[] = [];
    if (this.nextId === 0)
      lines.push(
        JSON.stringify({
          jsonrpc: "2.0",
          id: this.nextId++,
          method: "initialize",
          params: { protocolVersion: 1, clientCapabilities: {} },
        }),
      );
    for (let i = 0; i < count; i++)
      lines.push(JSON.stringify({ jsonrpc: "2.0", id: this.nextId++, method: "session/list", params: {} }));
    this.child.stdin!.write(`${lines.join("\n")}\n`);
  }

  /** Resolves once every request sent so far is answered (bounded). */
  answered(): Promise<void> {
    const count = this.nextId;
    return new Promise<void>((resolve, reject) => {
      if (this.answers >= count) return resolve();
      const timer = setTimeout(() => reject(new Error(`${this.answers} of ${count} answers`)), 15_000);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

/** The number of records in a trace file's text. */
function recordCount(text: string): number {
  const split = splitTraceText(text);
  if (!split.ok) throw new Error(split.problem);
  return decodeLines(split.lines, 0, split.lines.length).records.length;
}

/** The hub's traces, through its HTTP API. */
async function hubApi(path: string): Promise<Response> {
  const res = await fetch(`http://127.0.0.1:${hub.port}${path}`, {
    headers: { Authorization: `Bearer ${hub.token}` },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res;
}

/** The records of the one trace the hub holds, once it holds as many as the tap's own file (bounded). */
async function settledHubRecords(tapTrace: string): Promise<number> {
  let id = "";
  let records = -1;
  await expect
    .poll(
      async () => {
        const { traces } = (await (await hubApi("/api/traces")).json()) as { traces: { id: string }[] };
        if (traces.length !== 1) return `${traces.length} traces`;
        id = traces[0]!.id;
        records = recordCount(await (await hubApi(`/api/traces/${id}`)).text());
        return records === recordCount(readFileSync(tapTrace, "utf8")) ? "settled" : `${records} records`;
      },
      { timeout: 15_000 },
    )
    .toBe("settled");
  return records;
}

test("a window that opens after the ring overflowed shows every record of the live trace, then the live tail", async ({
  page,
}) => {
  const problems = guardConsole(page);
  const tapTrace = hub.scratch("tap.jsonl");
  const client = new ProxyClient(
    hub.spawnCli([
      "proxy",
      "--trace",
      tapTrace,
      "--",
      process.execPath,
      cliPath,
      "demo-agent",
      "--store",
      hub.scratch("agent-store"),
    ]),
  );
  client.send(60);
  await client.answered();
  const before = await settledHubRecords(tapTrace);
  expect(before).toBeGreaterThan(2 * RING);

  await page.goto(hub.url);
  const status = page.getByRole("status", { name: "Connection" });
  await expect(status).toContainText("connected");
  await expect(
    page.getByText(/Reloaded 1 trace from the hub's files after missing [\d,]+ events/),
  ).toBeVisible();
  await expect(page.getByRole("status", { name: "Trace facts" })).toContainText(`${before} records`);
  await expect(status).not.toContainText("gap");
  await page.getByRole("tab", { name: "Records" }).click();
  await expect(page.getByRole("grid", { name: "Trace records" })).toHaveAttribute(
    "aria-rowcount",
    String(before + 1),
  );

  // The session goes on: live records join the reloaded trace, none twice.
  client.send(15);
  await client.answered();
  const after = await settledHubRecords(tapTrace);
  expect(after).toBeGreaterThan(before);
  await expect(page.getByRole("status", { name: "Trace facts" })).toContainText(`${after} records`);
  await expect(page.getByRole("grid", { name: "Trace records" })).toHaveAttribute(
    "aria-rowcount",
    String(after + 1),
  );

  client.child.stdin!.end();
  expect(await client.exited).toBe(0);
  const final = await settledHubRecords(tapTrace);
  await expect(page.getByRole("status", { name: "Trace facts" })).toContainText(`${final} records`);
  expect(problems).toEqual([]);
});
