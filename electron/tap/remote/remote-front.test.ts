/**
 * `proxy --listen` as a real process in front of real agents, with the SDK's own remote client
 * transports (`experimental/ws-client`, `experimental/http-client`) and raw sockets as clients.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { startRemoteAgent } from "../../peers/testing/raw-agent.js";
import { analyze, demoAgent, demoClient, Scratch, startFront, stopFront } from "../testing/peers.js";
import { traceRecords, within } from "../testing/proxy-run.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

type Message = Record<string, unknown>;
interface SdkStream {
  readonly readable: ReadableStream<Message>;
  readonly writable: WritableStream<Message>;
}

/** Speaks to `stream` like a minimal v2 client: initialize, session/new, one keyed prompt; returns the prompt's answer. */
async function keyedPrompt(stream: SdkStream, cwd: string): Promise<Message> {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const answers = new Map<unknown, Message>();
  const answer = async (id: number): Promise<Message> => {
    while (!answers.has(id)) {
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      if ("id" in value && !("method" in value)) answers.set(value.id, value);
    }
    return answers.get(id) as Message;
  };
  await writer.write({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} },
  });
  await answer(0);
  await writer.write({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd } });
  const { sessionId } = (await answer(1)).result as { sessionId: string };
  await writer.write({
    jsonrpc: "2.0",
    id: 2,
    method: "session/prompt",
    params: { sessionId, prompt: [{ type: "text", text: "hi" }], idempotencyKey: "K-1" },
  });
  const result = await answer(2);
  reader.releaseLock();
  writer.releaseLock();
  await stream.writable.close().catch(() => {});
  return result;
}

const frames = (records: TraceRecord[]) => records.filter((r): r is FrameRecord => r.type === "frame");

describe("proxy --listen (remote front)", { timeout: 90_000 }, () => {
  it("serves the SDK's WebSocket and HTTP clients, each its own numbered connection with its own agent", async () => {
    const trace = scratch.path("front.jsonl");
    const front = await startFront(
      scratch,
      ["--no-hub", "--trace", trace],
      demoAgent(scratch, "--turn-ms", "50"),
    );
    const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
    const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
    const viaWs = await within(
      keyedPrompt(
        createWebSocketStream(front.wsUrl, {
          WebSocket: WebSocket as never,
          headers: front.headers,
        }) as SdkStream,
        scratch.dir,
      ),
      30_000,
      "the WebSocket client",
    );
    const viaHttp = await within(
      keyedPrompt(createHttpStream(front.httpUrl, { headers: front.headers }) as SdkStream, scratch.dir),
      30_000,
      "the HTTP client",
    );
    expect(viaWs.result).toMatchObject({ messageId: expect.any(String) });
    expect(viaHttp.result).toMatchObject({ messageId: expect.any(String) });
    await stopFront(front.child);

    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "conn-open")).toMatchObject([
      { conn: 1, transport: "ws", peer: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
      { conn: 2, transport: "http" },
    ]);
    expect(
      records.filter((r) => r.type === "agent-spawn").map((r) => (r.type === "agent-spawn" ? r.conn : 0)),
    ).toEqual([1, 2]);
    for (const conn of [1, 2]) {
      const mine = frames(records).filter((f) => f.conn === conn);
      expect(mine.filter((f) => f.dir === "client->agent").map((f) => JSON.parse(f.raw).method)).toEqual([
        "initialize",
        "session/new",
        "session/prompt",
      ]);
      expect(mine.some((f) => f.dir === "agent->client" && f.raw.includes('"messageId"'))).toBe(true);
    }
  });

  it("forwards WebSocket messages verbatim both ways and answers the upgrade with Acp-Connection-Id", async () => {
    const trace = scratch.path("verbatim.jsonl");
    const front = await startFront(scratch, ["--no-hub", "--trace", trace], demoAgent(scratch));
    const ws = new WebSocket(front.wsUrl, { headers: front.headers });
    const opened = new Promise<void>((resolve) => ws.on("open", () => resolve()));
    const connectionId = await within(
      new Promise<string | undefined>((resolve, reject) => {
        ws.on("upgrade", (res) => resolve(res.headers["acp-connection-id"] as string | undefined));
        ws.on("error", reject);
      }),
      10_000,
      "the upgrade",
    );
    expect(connectionId).toMatch(/^[0-9a-f-]{36}$/);
    const received: string[] = [];
    const answered = new Promise<void>((resolve) =>
      ws.on("message", (d) => {
        received.push(d.toString());
        resolve();
      }),
    );
    await within(opened, 10_000, "the WebSocket to open");
    // Unusual spacing and key order: the agent must get exactly these bytes.
    const sent =
      '{ "params" : {"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}, "id":7, "jsonrpc":"2.0", "method":"initialize" }';
    ws.send(sent);
    await within(answered, 15_000, "the initialize answer");
    ws.close();
    await stopFront(front.child);
    const f = frames(await traceRecords(trace));
    expect(f.filter((r) => r.dir === "client->agent").map((r) => r.raw)).toEqual([sent]);
    expect(f.filter((r) => r.dir === "agent->client").map((r) => r.raw)).toEqual(received);
  });

  it("refuses a foreign Host or Origin and unknown connection ids", async () => {
    const front = await startFront(
      scratch,
      ["--no-hub", "--trace", scratch.path("x.jsonl")],
      demoAgent(scratch),
    );
    const port = new URL(front.httpUrl).port;
    const { request } = await import("node:http");
    const status = (headers: Record<string, string>, method = "POST") =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/acp", method, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(
          method === "POST" ? '{"jsonrpc":"2.0","id":1,"method":"session/list","params":{}}' : undefined,
        );
      });
    const json = { "Content-Type": "application/json", ...front.headers };
    expect(await status({ ...json, Host: "evil.example" })).toBe(403);
    expect(await status({ ...json, Origin: "https://evil.example" })).toBe(403);
    expect(await status({ ...json, "Acp-Connection-Id": "nope" })).toBe(404);
    expect(await status(json)).toBe(400); // no connection id and not an initialize
    expect(await status({ "Content-Type": "text/plain", ...front.headers })).toBe(415);
    await stopFront(front.child);
  });

  it("--agent-url: HTTP client, remote agent, disconnect-client on the answer; the retry on connection #2 is deduplicated", async () => {
    const agent = await startRemoteAgent(scratch.path("remote-store"));
    try {
      const trace = scratch.path("upstream.jsonl");
      const front = await startFront(
        scratch,
        [
          "--no-hub",
          "--trace",
          trace,
          "--agent-url",
          agent.wsUrl,
          "--fault",
          "disconnect-client:method=session/prompt,on=response",
        ],
        [],
      );
      const report = await demoClient(scratch, [
        "--timeout",
        "8000",
        "--no-wait-idle",
        "--url",
        front.httpUrl,
        "--token-file",
        front.tokenFile,
      ]);
      await stopFront(front.child);
      expect(report.ok).toBe(true);
      expect(report.connections).toBe(2);
      const model = await analyze(scratch, trace);
      const s = model.submissions[0];
      expect(model.submissions).toHaveLength(1);
      expect(s?.attempts.map((a) => a.conn)).toEqual([1, 2]);
      expect(s?.inserts).toBe(1);
      expect(s?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
      const records = await traceRecords(trace);
      expect(records.filter((r) => r.type === "agent-spawn")).toEqual([]);
      expect(records.filter((r) => r.type === "conn-close")[0]).toMatchObject({
        conn: 1,
        reason: "disconnected by a disconnect-client fault",
      });
    } finally {
      await agent.stop();
    }
  });
});

describe("proxy --listen --agent-url http:// (Streamable HTTP upstream)", { timeout: 90_000 }, () => {
  it("WebSocket client, Streamable HTTP agent: messages forwarded verbatim both ways, the agent's exact text recorded", async () => {
    const agent = await startRemoteAgent(scratch.path("remote-store"));
    try {
      const trace = scratch.path("http-upstream.jsonl");
      const front = await startFront(
        scratch,
        ["--no-hub", "--trace", trace, "--agent-url", agent.httpUrl],
        [],
      );
      const ws = new WebSocket(front.wsUrl, { headers: front.headers });
      const received: string[] = [];
      let wake = () => {};
      ws.on("message", (d) => {
        received.push(d.toString());
        wake();
      });
      const next = (n: number, what: string) =>
        within(
          new Promise<void>((resolve) => {
            wake = () => {
              if (received.length >= n) resolve();
            };
            wake();
          }),
          15_000,
          what,
        );
      await within(new Promise((resolve) => ws.on("open", resolve)), 10_000, "the WebSocket to open");
      // Unusual spacing and key order: the agent gets exactly these bytes as the POST body.
      const init =
        '{ "params" : {"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}, "id":7, "jsonrpc":"2.0", "method":"initialize" }';
      ws.send(init);
      await next(1, "the initialize answer (the POST's body)");
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "session/new", params: { cwd: scratch.dir } }));
      await next(2, "the session/new answer (on the connection's SSE stream)");
      const { sessionId } = (JSON.parse(received[1] as string) as { result: { sessionId: string } }).result;
      ws.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "session/prompt",
          params: { sessionId, prompt: [{ type: "text", text: "hi" }], idempotencyKey: "K-http" },
        }),
      );
      await within(
        new Promise<void>((resolve) => {
          wake = () => {
            if (received.some((m) => m.includes('"id":9'))) resolve();
          };
          wake();
        }),
        15_000,
        "the prompt's answer (on the session's SSE stream)",
      );
      ws.close();
      await stopFront(front.child);
      const records = await traceRecords(trace);
      expect(records[0]).toMatchObject({ type: "note", text: `forwarding to the agent at ${agent.httpUrl}` });
      const f = frames(records);
      expect(f.filter((r) => r.dir === "client->agent").map((r) => r.raw)[0]).toBe(init);
      expect(f.filter((r) => r.dir === "agent->client").map((r) => r.raw)).toEqual(received);
      expect(JSON.parse(received[0] as string)).toMatchObject({ id: 7, result: { protocolVersion: 2 } });
      expect(received.some((m) => m.includes('"session/update"'))).toBe(true);
      expect(records.filter((r) => r.type === "conn-close")).toEqual([
        expect.objectContaining({ conn: 1, reason: "client closed the connection" }),
      ]);
    } finally {
      await agent.stop();
    }
  });

  it("disconnect-client on the answer; the retry on connection #2 reaches the same HTTP agent and is deduplicated", async () => {
    const agent = await startRemoteAgent(scratch.path("remote-store"));
    try {
      const trace = scratch.path("http-upstream-retry.jsonl");
      const front = await startFront(
        scratch,
        [
          "--no-hub",
          "--trace",
          trace,
          "--agent-url",
          agent.httpUrl,
          "--fault",
          "disconnect-client:method=session/prompt,on=response",
        ],
        [],
      );
      const report = await demoClient(scratch, [
        "--timeout",
        "8000",
        "--no-wait-idle",
        "--url",
        front.wsUrl,
        "--token-file",
        front.tokenFile,
      ]);
      await stopFront(front.child);
      expect(report.ok).toBe(true);
      expect(report.connections).toBe(2);
      const model = await analyze(scratch, trace);
      expect(model.submissions).toHaveLength(1);
      expect(model.submissions[0]?.attempts.map((a) => a.conn)).toEqual([1, 2]);
      expect(model.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    } finally {
      await agent.stop();
    }
  });

  it("an agent that cannot be reached closes the client's connection with the reason in the trace", async () => {
    const trace = scratch.path("unreachable.jsonl");
    // A loopback port that was just free: nothing listens there.
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}/acp`;
    const front = await startFront(scratch, ["--no-hub", "--trace", trace, "--agent-url", url], []);
    const ws = new WebSocket(front.wsUrl, { headers: front.headers });
    const closed = new Promise<void>((resolve) => ws.on("close", () => resolve()));
    ws.on("open", () =>
      ws.send(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}}',
      ),
    );
    await within(closed, 15_000, "the front to close the client's connection");
    await stopFront(front.child);
    const close = (await traceRecords(trace)).find((r) => r.type === "conn-close");
    expect(close).toMatchObject({
      conn: 1,
      reason: `cannot reach the agent at ${url}: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });
});
