/**
 * Issue 12 item 6 at the hub: a tap (a real hub link over a loopback WebSocket) sends records with
 * wrong fields. The hub keeps the connection, stores each record as it came (so nothing is lost),
 * relays it to UIs, and every reader flags it: the hub's file read back, and a UI's live trace. Only
 * valid records reach the fault board: a fault record with a wrong field lowers no rule's count.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TraceCatalog } from "../../renderer/model/traces/trace-catalog.js";
import { TRACE_FORMAT, type TraceHeader, type TraceRecord } from "../../shared/trace/record.js";
import { createHubLink } from "../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../tools/testing/ui-probe.js";
import { readTrace, type TraceReadEvent } from "../trace/trace-reader.js";
import { startHub } from "./hub-server.js";

const header: TraceHeader = {
  format: TRACE_FORMAT,
  version: 1,
  tool: "test",
  startedAt: "2026-01-01T00:00:00Z",
};
const frame = (seq: number): TraceRecord => ({
  type: "frame",
  seq,
  ts: seq,
  conn: 1,
  dir: "client->agent",
  raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { n: seq } }),
});

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-check-"));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});
function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

describe("records from a tap are checked at the hub", () => {
  it("keeps invalid records flagged in the file and in a UI, keeps the tap attached, and lets only valid faults count", async () => {
    const hub = await startHub({ tracesDir: join(dir, "traces"), ringSize: 1_000, flushMs: 20 });
    cleanups.push(() => hub.close());
    const l = createHubLink({
      header,
      hub: { port: hub.port, token: hub.token },
      retryMinMs: 50,
      retryMaxMs: 200,
    });
    cleanups.push(() => l.close(200));
    // a rule is armed on an attached tap (and answered once that tap acknowledged it)
    await until(() => l.stats().attached && l.stats().traceId !== undefined, "the tap to attach");
    const rule = await fetch(`http://127.0.0.1:${hub.port}/api/faults`, {
      method: "POST",
      headers: { Authorization: `Bearer ${hub.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        action: "drop-response",
        match: { method: "session/prompt" },
        count: 2,
        target: { tap: l.stats().traceId },
      }),
    })
      .then((r) => r.json() as Promise<{ rule: { id: string } }>)
      .then((r) => r.rule);
    const junk = [
      { ...frame(2), raw: 42 }, // the repro: raw not a string
      { type: "fault", seq: 3, ts: 3, action: ["drop-response"], ruleId: rule.id }, // action not a string
      { type: "note", seq: -4, ts: 4, level: "info", text: "negative seq" },
    ];
    l.send(frame(1));
    for (const j of junk) l.send(j as unknown as TraceRecord);
    l.send(frame(5));
    l.send({ type: "fault", seq: 6, ts: 6, action: "drop-response", ruleId: rule.id });
    await until(() => l.stats().acked >= 6, "the hub to ack every record");
    expect(l.stats().attached).toBe(true);

    // the file keeps all six, and reading it back flags the three
    const events: TraceReadEvent[] = [];
    for await (const ev of readTrace(join(hub.tracesDir, `${l.stats().traceId}.jsonl`))) events.push(ev);
    expect(events.map((e) => e.kind)).toEqual([
      "header",
      "record",
      "invalid",
      "invalid",
      "invalid",
      "record",
      "record",
    ]);
    const invalid = events.flatMap((e) => (e.kind === "invalid" ? [e.invalid] : []));
    expect(invalid.map((e) => e.faults)).toEqual([
      [{ field: "raw", reason: "must be a string, got number" }],
      [{ field: "action", reason: "must be a string, got array" }],
      [{ field: "seq", reason: "must be a positive integer, got -4" }],
    ]);

    // only the valid fault record lowered the rule: 2 -> 1
    const faults = await fetch(`http://127.0.0.1:${hub.port}/api/faults`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    }).then((r) => r.json() as Promise<{ rules: { id: string; count: number }[] }>);
    expect(faults.rules.find((r) => r.id === rule.id)?.count).toBe(1);

    // a UI gets all six as events and its live trace flags the three
    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    await until(() => ui.records().length === 6, "six record events");
    const catalog = new TraceCatalog();
    catalog.applyHubEvents(ui.events());
    const session = catalog.get(l.stats().traceId as string);
    expect(session?.records.map((r) => r.seq)).toEqual([1, 5, 6]);
    expect(session?.flagged.map((e) => e.faults[0]?.field)).toEqual(["raw", "action", "seq"]);
  });
});
