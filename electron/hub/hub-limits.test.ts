import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { TAP_PATH, UI_PATH } from "../../shared/hub/protocol-version.js";
import type { HubGap } from "../../shared/hub/ui-wire.js";
import { TRACE_FORMAT, type TraceRecord } from "../../shared/trace/record.js";
import { createHubLink } from "../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../tools/testing/ui-probe.js";
import { type HubOptions, type RunningHub, startHub } from "./hub-server.js";

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-limits-"));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

async function hubWith(options: Omit<HubOptions, "tracesDir">): Promise<RunningHub> {
  const hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 20, ...options });
  cleanups.push(() => hub.close());
  return hub;
}

/** A TCP connection to the hub that sends nothing (or only `bytes`); resolves once connected. */
function idleSocket(hub: RunningHub, bytes?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: "127.0.0.1", port: hub.port });
    cleanups.push(() => void s.destroy());
    s.on("error", () => {});
    s.once("connect", () => {
      if (bytes) s.write(bytes);
      resolve(s);
    });
    s.once("error", reject);
  });
}
const closed = (s: Socket) =>
  s.destroyed ? Promise.resolve() : new Promise<void>((resolve) => s.once("close", () => resolve()));

/** `GET /api/hub` with the token; resolves with the status. */
function getHub(hub: RunningHub): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: hub.port,
        path: "/api/hub",
        headers: { Authorization: `Bearer ${hub.token}` },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Attempts an authenticated upgrade; resolves with the status (101 when it opened) and the body. */
function upgrade(hub: RunningHub, path: string): Promise<{ status: number; body: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}${path}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    cleanups.push(() => ws.terminate());
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on("open", () => resolve({ status: 101, body: "", ws }));
    ws.on("error", reject);
  });
}

describe("hub limits", () => {
  it("bounds the ring by bytes: old events go, and a late subscriber is told of the gap", async () => {
    const hub = await hubWith({ ringBytes: 20_000 });
    const l = createHubLink({
      header: { format: TRACE_FORMAT, version: 1, tool: "test", startedAt: "2026-01-01T00:00:00Z" },
      hub: { port: hub.port, token: hub.token },
    });
    cleanups.push(() => l.close(200));
    const frame = (seq: number): TraceRecord => ({
      type: "frame",
      seq,
      ts: seq,
      conn: 1,
      dir: "agent->client",
      raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { pad: "x".repeat(1_000) } }),
    });
    for (let i = 1; i <= 100; i++) l.send(frame(i));
    await new Promise<void>((resolve) => {
      const tick = () => (l.stats().acked === 100 ? resolve() : setTimeout(tick, 10));
      tick();
    });
    const ui = await connectUiProbe(hub.port, hub.token);
    cleanups.push(() => ui.close());
    ui.send({ t: "subscribe", after: 0 });
    const gap = (await ui.waitFor((m) => m.t === "gap")) as HubGap;
    // seq 1 is tap-attached, 2..101 the records; about 1 kB each, so some 19 fit in 20 000 bytes
    expect(gap.after).toBe(0);
    expect(gap.oldestSeq).toBeGreaterThan(70);
    await ui.waitForEvents(101 - gap.oldestSeq + 1);
    const seqs = ui.events().map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 101 - gap.oldestSeq + 1 }, (_, i) => gap.oldestSeq + i));
  });

  it("drops the oldest idle connections over the cap, so an authenticated request still answers", async () => {
    const hub = await hubWith({ maxConnections: 50, headersTimeoutMs: 60_000 });
    const idle = [];
    for (let i = 0; i < 60; i++) idle.push(await idleSocket(hub));
    // the first ten made way for the last ten
    await Promise.all(idle.slice(0, 10).map(closed));
    expect(idle.slice(10).every((s) => !s.destroyed)).toBe(true);
    expect(await getHub(hub)).toBe(200);
  });

  it("drops connections that sent no token, kept alive or not, before a token holder's", async () => {
    const hub = await hubWith({ maxConnections: 20, headersTimeoutMs: 60_000 });
    // twenty connections that each load a static page (no token needed) and stay kept alive
    const page = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n\r\n`;
    const answered = (s: Socket) => new Promise<void>((resolve) => s.once("data", () => resolve()));
    const loaded: Socket[] = [];
    for (let i = 0; i < 20; i++) {
      const s = await idleSocket(hub, page);
      await answered(s);
      loaded.push(s);
    }
    // a token holder gets in, and its kept-alive connection survives ten more of them
    expect(await getHub(hub)).toBe(200);
    const holder = await idleSocket(
      hub,
      `GET /api/hub HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nAuthorization: Bearer ${hub.token}\r\n\r\n`,
    );
    await answered(holder);
    for (let i = 0; i < 10; i++) await answered(await idleSocket(hub, page));
    expect(holder.destroyed).toBe(false);
    // the oldest tokenless ones made way
    await Promise.all(loaded.slice(0, 10).map(closed));
    expect(await getHub(hub)).toBe(200);
  });

  it("closes a connection that sends no complete request within the deadline", async () => {
    const hub = await hubWith({ headersTimeoutMs: 200 });
    const silent = await idleSocket(hub);
    const slow = await idleSocket(hub, `GET /api/hub HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n`);
    await Promise.all([closed(silent), closed(slow)]);
    expect(await getHub(hub)).toBe(200);
  });

  it("refuses a tap or UI upgrade over its cap with 503 and the reason", async () => {
    const hub = await hubWith({ maxTapSockets: 2, maxUiSockets: 1 });
    expect((await upgrade(hub, TAP_PATH)).status).toBe(101);
    expect((await upgrade(hub, TAP_PATH)).status).toBe(101);
    const tap = await upgrade(hub, TAP_PATH);
    expect(tap.status).toBe(503);
    expect(tap.body).toMatch(/2 tap connections/);
    const ui = await upgrade(hub, UI_PATH);
    expect(ui.status).toBe(101);
    const ui2 = await upgrade(hub, UI_PATH);
    expect(ui2).toMatchObject({ status: 503 });
    expect(ui2.body).toMatch(/1 UI connections/);
    // a closed one makes room again
    const closing = new Promise((resolve) => ui.ws?.once("close", resolve));
    ui.ws?.close();
    await closing;
    let again = await upgrade(hub, UI_PATH);
    // the server may see the socket close a moment after the client does
    while (again.status === 503) again = await upgrade(hub, UI_PATH);
    expect(again.status).toBe(101);
  });
});
