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
import { reloadTraces } from "../../renderer/model/store/gap-reload.js";
import { PendingReloads } from "../../renderer/model/traces/trace-reload.js";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { type HubGap, type HubReply, uiOperationMessage } from "../../shared/hub/ui-wire.js";
import {
  type FrameRecord,
  TRACE_FORMAT,
  type TraceHeader,
  type TraceRecord,
} from "../../shared/trace/record.js";
import { callOperation } from "../hub-client/hub-client.js";
import { createHubLink } from "../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../tools/testing/ui-probe.js";
import { type RunningHub, startHub } from "./hub-server.js";

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

/** A hub (its ring `ringSize` events) with `records` streamed to it by a real hub link and acked; the trace id. */
async function hubWithRecords(
  records: readonly TraceRecord[],
  ringSize?: number,
): Promise<{ hub: RunningHub; traceId: string }> {
  const hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 20, ...(ringSize && { ringSize }) });
  cleanups.push(() => hub.close());
  const l = createHubLink({
    header,
    hub: { port: hub.port, token: hub.token },
    retryMinMs: 50,
    retryMaxMs: 200,
  });
  cleanups.push(() => l.close(500));
  for (const r of records) l.send(r);
  await until(() => l.stats().acked >= records.length, "every record acked");
  return { hub, traceId: l.stats().traceId as string };
}

describe("large frames", () => {
  it("reach a UI as a preview with their size; readFrame gives the whole frame from the file", async () => {
    const small = prompt(1, "x".repeat(1000));
    const big = prompt(2, `${"A".repeat(3 << 20)}tail`);
    const after = prompt(3, "y".repeat(10));
    const { hub, traceId } = await hubWithRecords([small, big, after]);

    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    const records = () => ui.records() as FrameRecord[];
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

/**
 * A v2 session whose key the Agent repeats inside a 3 MiB string, 1,000 characters in: past what a
 * preview keeps of it (256), so only a scan of the full bytes finds it.
 */
function leakingSession(): { records: TraceRecord[]; key: string } {
  const key = "k-7d0f3c2a-91b4-4e5f-a6c7-d8e9f0a1b2c3";
  const text = `${"a".repeat(1_000)} ${key} ${"b".repeat(3 << 20)}`;
  const sc = new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2, clientCapabilities: {} })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .prompt(1, 1, "s1", "describe the image", key)
    .notify(1, "agent->client", "session/update", {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
    })
    .inserted(1, 1, "m1");
  return { records: sc.records as TraceRecord[], key };
}

function verdictsOf(records: readonly unknown[]): string[] {
  const a = new Analyzer();
  for (const r of records) a.ingest(r as TraceRecord);
  return a.model().submissions.flatMap((s) => s.verdicts.map((v) => v.name));
}

describe("a key leaked past a preview's cut", () => {
  it("is found by the UI's analysis of the preview: the hub scans the full bytes and the preview says so", async () => {
    const { records, key } = leakingSession();
    const { hub } = await hubWithRecords(records);
    // what `analyze` finds in the file
    expect(verdictsOf(records)).toContain("key-leaked");

    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    const got = () => ui.records() as TraceRecord[];
    await until(() => got().length === records.length, "every record event");
    const preview = got()[4] as FrameRecord;
    expect(preview.previewOf).toBe(Buffer.byteLength((records[4] as FrameRecord).raw));
    expect(preview.raw).not.toContain(key);
    expect(preview.previewLeaks).toEqual([key]);
    expect(verdictsOf(got())).toContain("key-leaked");
    // without the hub's word the preview alone hides it (what the UI saw before)
    const bare = got().map((r) => ({ ...r, previewLeaks: undefined }));
    expect(verdictsOf(bare)).not.toContain("key-leaked");
  });

  it("a window reloading after a gap gets large frames as previews (with their leaks), and readFrame still gives them whole", async () => {
    const { records, key } = leakingSession();
    const { hub, traceId } = await hubWithRecords(records, 2);

    // a window joining now missed what the ring no longer holds: the hub says gap
    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    const gap = (await ui.waitFor((m) => m.t === "gap")) as HubGap;
    expect(gap.traceIds).toContain(traceId);

    // the window's reload, with the browser bridge's calls (file answers come over HTTP)
    const at = { base: `http://127.0.0.1:${hub.port}`, token: hub.token };
    const fetched: string[] = [];
    const files = {
      listTraces: () => callOperation(at, "listTraces", {}),
      readTracePreviews: async (args: { id: string }) => {
        const r = await callOperation(at, "readTracePreviews", args);
        fetched.push(r.text);
        return r;
      },
    };
    const pending = new PendingReloads();
    const gen = pending.begin([...gap.traceIds]);
    const batch = await reloadTraces(
      { files, pending, current: () => undefined, pause: async () => {} },
      [...gap.traceIds],
      gen,
      5,
    );
    expect(batch.failed).toEqual([]);
    const reloaded = batch.reloaded.find((t) => t.traceId === traceId)?.loaded;
    expect(reloaded?.records).toHaveLength(records.length);
    const big = reloaded?.records[4] as FrameRecord;
    const whole = records[4] as FrameRecord;
    expect(big.previewOf).toBe(Buffer.byteLength(whole.raw));
    expect(big.raw.length).toBeLessThan(2_000);
    expect(big.previewLeaks).toEqual([key]);
    // what crossed the wire was the preview, not the 3 MiB frame
    expect(fetched.join("").length).toBeLessThan(20_000);
    // the other records as they are, and the leak found in the rebuilt session
    expect(reloaded?.records.filter((_, i) => i !== 4)).toEqual(records.filter((_, i) => i !== 4));
    const verdicts = reloaded?.timelineModel().submissions.flatMap((s) => s.verdicts.map((v) => v.name));
    expect(verdicts).toContain("key-leaked");
    // the whole frame is still there, from the file
    expect((await callOperation(at, "readFrame", { trace: traceId, seq: whole.seq })).frame).toEqual(whole);
  });
});
