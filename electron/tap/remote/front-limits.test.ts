/**
 * The `--listen` front's TCP limits (the hub's `limitConnections`) and its per-connection
 * footprint, with a real front on loopback, real sockets and real agent processes: idle
 * unauthenticated sockets cannot lock out the token holder, a silent connection is closed at the
 * header deadline, and serving many connections leaves no listener behind on the shared stderr.
 */
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { TraceRecord } from "../../../shared/trace/record.js";
import type { ConnectionLimits } from "../../platform/connection-limits.js";
import { bearer, newFrontToken } from "../../platform/front-token.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import { scriptedAgent, within } from "../testing/proxy-run.js";
import { type RemoteFront, startRemoteFront } from "./remote-front.js";

const token = newFrontToken();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A front spawning echo agents, its trace records kept in memory, its agents' stderr into `errOut`. */
async function frontWith(
  connections: Partial<ConnectionLimits>,
  errOut = new PassThrough(),
): Promise<{ front: RemoteFront; records: TraceRecord[]; errOut: PassThrough }> {
  const records: TraceRecord[] = [];
  const trace = new TraceFanout(new RecordSequencer(), [
    { write: (r) => records.push(r), backpressure: () => null, close: async () => {} },
  ]);
  errOut.resume();
  const front = await startRemoteFront(
    { host: "127.0.0.1", port: 0, path: "/acp" },
    { agent: { kind: "command", command: scriptedAgent("stderr", "hello") }, trace, errOut },
    { token, maxAgents: 8, connections },
  );
  cleanups.push(() => front.close());
  return { front, records, errOut };
}

/** A TCP connection to `port` that sends `text` (nothing by default) and then stays open. */
function idleSocket(port: number, text = ""): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: "127.0.0.1", port }, () => {
      if (text) s.write(text);
      resolve(s);
    });
    s.on("error", reject);
    cleanups.push(() => s.destroy());
  });
}

/** Resolves when `s` has been closed (by the front). */
function closed(s: Socket): Promise<void> {
  return s.destroyed ? Promise.resolve() : new Promise((resolve) => s.once("close", () => resolve()));
}

/** A token holder's WebSocket: resolves once a message sent on it came back through its agent. */
async function echoed(front: RemoteFront): Promise<WebSocket> {
  const ws = new WebSocket(front.wsUrl, { headers: { Authorization: bearer(token) } });
  ws.on("error", () => {});
  cleanups.push(() => ws.terminate());
  await within(
    new Promise<void>((resolve, reject) => {
      ws.once("open", () => ws.send('{"jsonrpc":"2.0","method":"ping"}'));
      ws.once("message", () => resolve());
      ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once("close", (code) => reject(new Error(`closed ${code}`)));
    }),
    10_000,
    "the token holder's echo",
  );
  return ws;
}

describe("proxy --listen: the hub's connection limits", { timeout: 60_000 }, () => {
  it("drops the oldest idle sockets over the cap, so the token holder still gets in", async () => {
    const { front } = await frontWith({ maxConnections: 50, headersTimeoutMs: 60_000 });
    const idle: Socket[] = [];
    for (let i = 0; i < 300; i++) idle.push(await idleSocket(front.port));
    // the first 250 made way for the last 50, the newest of them still held
    await within(
      Promise.all(idle.slice(0, 250).map(closed)),
      10_000,
      "the oldest idle sockets to be dropped",
    );
    expect(idle.slice(-10).every((s) => !s.destroyed)).toBe(true);
    await echoed(front);
  });

  it("keeps a token holder's connection through a flood of idle and tokenless sockets", async () => {
    const { front } = await frontWith({ maxConnections: 20, headersTimeoutMs: 60_000 });
    const served = await echoed(front);
    const refused = `POST /acp HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nContent-Length: 0\r\n\r\n`;
    const flood: Socket[] = [];
    for (let i = 0; i < 100; i++) flood.push(await idleSocket(front.port, i % 2 === 0 ? "" : refused));
    // silent ones go first, then tokenless ones: at most the cap less the token holder's is left
    await within(
      new Promise<void>((resolve) => {
        const tick = () => (flood.filter((s) => !s.destroyed).length <= 19 ? resolve() : setTimeout(tick, 5));
        tick();
      }),
      10_000,
      "the flood to be cut to the cap",
    );
    expect(served.readyState).toBe(WebSocket.OPEN);
    const back = new Promise((resolve) => served.once("message", resolve));
    served.send('{"jsonrpc":"2.0","method":"still-here"}');
    await within(back, 10_000, "the served connection to answer after the flood");
  });

  it("closes a connection that sends no complete request within the header deadline", async () => {
    const { front } = await frontWith({ headersTimeoutMs: 200 });
    const silent = await idleSocket(front.port);
    const slow = await idleSocket(front.port, `GET /acp HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\n`);
    await within(Promise.all([closed(silent), closed(slow)]), 10_000, "the silent sockets to be closed");
    await echoed(front);
  });
});

describe("proxy --listen: per-connection footprint", { timeout: 60_000 }, () => {
  it("leaves no listener on the shared stderr after serving 30 connections one after another", async () => {
    const { front, records, errOut } = await frontWith({});
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    cleanups.push(() => process.off("warning", onWarning));
    const before = { error: errOut.listenerCount("error"), drain: errOut.listenerCount("drain") };
    for (let i = 1; i <= 30; i++) {
      const ws = await echoed(front);
      ws.close();
      await within(
        new Promise<void>((resolve) => {
          const tick = () =>
            records.filter((r) => r.type === "agent-exit").length >= i ? resolve() : setTimeout(tick, 5);
          tick();
        }),
        10_000,
        `agent ${i} to exit`,
      );
    }
    expect(records.filter((r) => r.type === "agent-stderr")).toHaveLength(30);
    expect(errOut.listenerCount("error")).toBeLessThanOrEqual(Math.max(before.error, 1));
    expect(errOut.listenerCount("drain")).toBe(before.drain);
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});
