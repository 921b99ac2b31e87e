import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import type { HubGap } from "../../shared/hub/ui-wire.js";
import { TRACE_FORMAT, type TraceHeader, type TraceRecord } from "../../shared/trace/record.js";
import { createHubLink, type HubLink } from "../tap/hub-link/hub-link.js";
import { connectUiProbe, type UiProbe } from "../tools/testing/ui-probe.js";
import { type RunningHub, startHub } from "./hub-server.js";

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
  dir = mkdtempSync(join(tmpdir(), "acp-ri-feed-"));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

async function hubWith(ringSize: number, rendezvousPath?: string): Promise<RunningHub> {
  const hub = await startHub({
    tracesDir: join(dir, "traces"),
    ringSize,
    flushMs: 30,
    ...(rendezvousPath && { rendezvousPath }),
  });
  cleanups.push(() => hub.close());
  return hub;
}
function link(opts: Parameters<typeof createHubLink>[0]): HubLink {
  const l = createHubLink({ retryMinMs: 50, retryMaxMs: 200, ...opts });
  cleanups.push(() => l.close(200));
  return l;
}
async function probe(hub: RunningHub): Promise<UiProbe> {
  const p = await connectUiProbe(hub.port, hub.token);
  cleanups.push(() => p.close());
  return p;
}
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
const events = (p: UiProbe) => p.events();
const recordEvents = (p: UiProbe) =>
  events(p).filter((e): e is Extract<HubEvent, { kind: "record" }> => e.kind === "record");

describe("hub event feed", () => {
  it("catches a subscriber up from the ring, then streams live, in batches", async () => {
    const hub = await hubWith(1_000);
    const l = link({ header, hub: { port: hub.port, token: hub.token } });
    for (let i = 1; i <= 200; i++) l.send(frame(i));
    await until(() => l.stats().acked === 200, "200 acked records");
    const ui = await probe(hub);
    ui.send({ t: "subscribe", after: 0 });
    await ui.waitForEvents(201); // tap-attached + 200 records
    const batches = ui.messages.filter((m) => m.t === "events").length;
    expect(batches).toBeLessThanOrEqual(3);
    const seqs = events(ui).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
    expect(recordEvents(ui).map((e) => e.record.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

    // live: 300 more, sent in a burst, arrive coalesced (far fewer messages than events)
    for (let i = 201; i <= 500; i++) l.send(frame(i));
    await ui.waitForEvents(501);
    const liveBatches = ui.messages.filter((m) => m.t === "events").length - batches;
    expect(liveBatches).toBeLessThan(30);
    expect(events(ui).at(-1)?.seq).toBe(501);
  });

  it("takes taps' bursts over several event-loop turns without losing or reordering a record", async () => {
    const hub = await hubWith(50_000);
    const ui = await probe(hub);
    ui.send({ t: "subscribe", after: 0 });
    const big = (seq: number): TraceRecord => ({
      type: "frame",
      seq,
      ts: seq,
      conn: 1,
      dir: "agent->client",
      raw: `${"y".repeat(2_000)}${seq}`,
    });
    // 3 taps x 2,000 records of ~2 KB: far more than one turn's 1 MiB budget at a time
    const links = [1, 2, 3].map(() => link({ header, hub: { port: hub.port, token: hub.token } }));
    for (const l of links) for (let i = 1; i <= 2_000; i++) l.send(big(i));
    await until(() => links.every((l) => l.stats().acked === 2_000), "every record acked", 15_000);
    await ui.waitForEvents(3 * 2_001, 10_000);
    const byTrace = new Map<string, number[]>();
    for (const e of recordEvents(ui))
      byTrace.set(e.traceId, [...(byTrace.get(e.traceId) ?? []), e.record.seq]);
    expect([...byTrace.values()]).toEqual(
      [1, 2, 3].map(() => Array.from({ length: 2_000 }, (_, i) => i + 1)),
    );
    expect(events(ui).map((e) => e.seq)).toEqual(Array.from({ length: 3 * 2_001 }, (_, i) => i + 1));
    for (const l of links) {
      const lines = readFileSync(join(dir, "traces", `${l.stats().traceId}.jsonl`), "utf8")
        .trimEnd()
        .split("\n");
      expect(lines.slice(1).map((x) => JSON.parse(x).seq)).toEqual(
        Array.from({ length: 2_000 }, (_, i) => i + 1),
      );
      expect(lines[2_000]).toBe(JSON.stringify(big(2_000)));
    }
  });

  it("serves a late subscriber only what follows seq N", async () => {
    const hub = await hubWith(1_000);
    const l = link({ header, hub: { port: hub.port, token: hub.token } });
    for (let i = 1; i <= 50; i++) l.send(frame(i));
    await until(() => l.stats().acked === 50, "50 acked records");
    const ui = await probe(hub);
    ui.send({ t: "subscribe", after: 41 });
    await ui.waitForEvents(10);
    expect(events(ui).map((e) => e.seq)).toEqual([42, 43, 44, 45, 46, 47, 48, 49, 50, 51]);
    l.send(frame(51));
    await ui.waitForEvents(11);
    expect(recordEvents(ui).at(-1)?.record.seq).toBe(51);
  });

  it("tells a subscriber whose seq fell out of the ring, offers the on-disk trace, and keeps the tap's seqs on disk", async () => {
    const hub = await hubWith(20);
    const l = link({ header, hub: { port: hub.port, token: hub.token } });
    for (let i = 1; i <= 100; i++) l.send(frame(i));
    await until(() => l.stats().acked === 100, "100 acked records");
    const ui = await probe(hub);
    ui.send({ t: "subscribe", after: 0 });
    const gap = (await ui.waitFor((m) => m.t === "gap")) as HubGap;
    expect(gap).toMatchObject({ after: 0, oldestSeq: 82 });
    const traceId = l.stats().traceId;
    expect(gap.traceIds).toEqual([traceId]);
    await ui.waitForEvents(20);
    expect(events(ui).map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 82));
    expect(ui.messages.findIndex((m) => m.t === "gap")).toBeLessThan(
      ui.messages.findIndex((m) => m.t === "events"),
    );

    await l.close();
    const res = await fetch(`http://127.0.0.1:${hub.port}/api/traces/${traceId}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    const lines = (await res.text()).trimEnd().split("\n");
    expect(JSON.parse(lines[0] as string)).toEqual(header);
    expect(lines.slice(1).map((x) => JSON.parse(x).seq)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(readFileSync(join(dir, "traces", `${traceId}.jsonl`), "utf8").split("\n")).toHaveLength(102);
  });

  it("imports a trace over HTTP and refuses a file that is not a trace", async () => {
    const hub = await hubWith(100);
    const auth = { Authorization: `Bearer ${hub.token}` };
    const body = `${JSON.stringify(header)}\n${JSON.stringify(frame(1))}\n`;
    const ok = await fetch(`http://127.0.0.1:${hub.port}/api/traces`, {
      method: "POST",
      headers: auth,
      body,
    });
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    const list = (await (
      await fetch(`http://127.0.0.1:${hub.port}/api/traces`, { headers: auth })
    ).json()) as {
      traces: { id: string; imported: boolean }[];
    };
    expect(list.traces).toContainEqual(expect.objectContaining({ id, imported: true }));
    const bad = await fetch(`http://127.0.0.1:${hub.port}/api/traces`, {
      method: "POST",
      headers: auth,
      body: "hello\n",
    });
    expect(bad.status).toBe(400);
    const traversal = await fetch(`http://127.0.0.1:${hub.port}/api/traces/..%2F..%2Fetc%2Fpasswd`, {
      headers: auth,
    });
    expect(traversal.status).toBe(404);
  });

  it("keeps a bounded backlog while no hub exists, then tells the hub how many it dropped", async () => {
    const rendezvousPath = join(dir, "run", "hub.json");
    const l = link({ header, rendezvousPath, maxBacklog: 50 });
    for (let i = 1; i <= 120; i++) l.send(frame(i));
    expect(l.stats()).toMatchObject({ attached: false, backlog: 50, dropped: 70 });
    const hub = await hubWith(1_000, rendezvousPath);
    const ui = await probe(hub);
    ui.send({ t: "subscribe", after: 0 });
    await until(() => l.stats().acked === 50, "the backlog to reach the hub");
    await ui.waitForEvents(53);
    expect(events(ui).find((e) => e.kind === "tap-gap")).toMatchObject({ dropped: 70 });
    // the hub's copy writes the hole down: a gap note in its last seq (70), before seq 71
    const seqs = recordEvents(ui).map((e) => e.record.seq);
    expect(seqs).toEqual([70, ...Array.from({ length: 50 }, (_, i) => i + 71)]);
    expect(recordEvents(ui)[0]?.record).toMatchObject({
      type: "note",
      gap: { from: 1, to: 70, missing: 70, reason: "tap-dropped" },
    });
  });
});
