/**
 * Issue 12 item 2: a frame over 256 KiB reaches a UI as a preview plus its size, and the whole frame
 * comes from the hub's trace file on demand (`readFrame`, over HTTP and the UI WebSocket). Real hub,
 * real hub link, loopback sockets; small counts (the memory goals are measured by
 * electron/tools/bench/hub-bounds.bench.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import { type HubEvents, type HubReply, uiOperationMessage } from "../../shared/hub/ui-wire.js";
import { type FrameRecord, TRACE_FORMAT, type TraceHeader } from "../../shared/trace/record.js";
import { callOperation } from "../hub-client/hub-client.js";
import { createHubLink } from "../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../tools/testing/ui-probe.js";
import { startHub } from "./hub-server.js";

const header: TraceHeader = {
  format: TRACE_FORMAT,
  version: 1,
  tool: "test",
  startedAt: "2026-01-01T00:00:00Z",
};
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const prompt = (seq: number, data: string): FrameRecord => ({
  type: "frame",
  seq,
  ts: seq,
  conn: 1,
  dir: "client->agent",
  raw: JSON.stringify({
    jsonrpc: "2.0",
    id: seq,
    method: "session/prompt",
    params: { sessionId: "s1", idempotencyKey: KEY, prompt: [{ type: "image", data }] },
  }),
});

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-large-"));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});
function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
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

describe("large frames", () => {
  it("reach a UI as a preview with their size; readFrame gives the whole frame from the file", async () => {
    const hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 20 });
    cleanups.push(() => hub.close());
    const l = createHubLink({
      header,
      hub: { port: hub.port, token: hub.token },
      retryMinMs: 50,
      retryMaxMs: 200,
    });
    cleanups.push(() => l.close(500));
    const small = prompt(1, "x".repeat(1000));
    const big = prompt(2, `${"A".repeat(3 << 20)}tail`);
    const after = prompt(3, "y".repeat(10));
    for (const r of [small, big, after]) l.send(r);
    await until(() => l.stats().acked >= 3, "three records acked");
    const traceId = l.stats().traceId as string;

    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    const records = () =>
      ui.messages
        .filter((m): m is HubEvents => m.t === "events")
        .flatMap((m) => m.events as HubEvent[])
        .flatMap((e) => (e.kind === "record" ? [e.record as FrameRecord] : []));
    await until(() => records().length === 3, "three record events");
    const [gotSmall, gotBig, gotAfter] = records();
    expect(gotSmall).toEqual(small);
    expect(gotAfter).toEqual(after);
    expect(gotBig?.previewOf).toBe(Buffer.byteLength(big.raw));
    expect(gotBig?.raw.length).toBeLessThan(2_000);
    expect(JSON.parse(gotBig?.raw ?? "").params).toMatchObject({ sessionId: "s1", idempotencyKey: KEY });

    // the file has every byte
    const lines = readFileSync(join(hub.tracesDir, `${traceId}.jsonl`), "utf8")
      .trimEnd()
      .split("\n");
    expect(JSON.parse(lines[2] as string)).toEqual(big);

    // readFrame over HTTP (from the index of large frames) and over the UI socket
    const http = await callOperation(
      { base: `http://127.0.0.1:${hub.port}`, token: hub.token },
      "readFrame",
      {
        trace: traceId,
        seq: 2,
      },
    );
    expect(http.frame).toEqual(big);
    ui.send(uiOperationMessage("readFrame", { trace: traceId, seq: 1 }, "f1"));
    const reply = (await ui.waitFor((m) => m.t === "reply" && m.ref === "f1")) as HubReply;
    expect(reply).toMatchObject({ ok: true, value: { frame: small } });
    await expect(
      callOperation({ base: `http://127.0.0.1:${hub.port}`, token: hub.token }, "readFrame", {
        trace: traceId,
        seq: 99,
      }),
    ).rejects.toThrow(/no frame 99/);
  });
});
