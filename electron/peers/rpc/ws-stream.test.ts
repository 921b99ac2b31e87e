import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { openWebSocketStream } from "./ws-stream.js";

let server: WebSocketServer | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that answers each request `delayMs` later, without reading anything meanwhile (so it has not seen a close frame). */
async function slowServer(delayMs: number, closeCode = 1000): Promise<string> {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server?.once("listening", () => resolve()));
  server.on("connection", (ws) => {
    ws.on("message", (data) => {
      const request = JSON.parse(String(data)) as { id: number };
      const raw = (ws as unknown as { _socket: import("node:net").Socket })._socket;
      raw.pause();
      setTimeout(() => {
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { late: true } }));
        if (closeCode !== 1000) ws.close(closeCode);
        raw.resume();
      }, delayMs);
    });
  });
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readAll(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return seen;
    seen.push(value);
  }
}

describe("openWebSocketStream", () => {
  it("still reads an answer sent before the other side saw our close frame", async () => {
    // The server stops reading once it has the request, so it has not seen our close frame when it answers.
    server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server?.once("listening", () => resolve()));
    let answer: () => void = () => undefined;
    const received = new Promise<void>((resolve) => {
      server?.on("connection", (ws) => {
        ws.on("message", (data) => {
          const request = JSON.parse(String(data)) as { id: number };
          const raw = (ws as unknown as { _socket: import("node:net").Socket })._socket;
          raw.pause();
          answer = () => {
            ws.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { late: true } }));
            raw.resume();
          };
          resolve();
        });
      });
    });
    const { stream, closeCode } = openWebSocketStream(
      `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    );
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} } as never);
    await received;
    // Hang up: our close frame is sent; the answer is sent after it, before the server reads it.
    await writer.close();
    answer();
    const seen = await readAll(stream.readable);
    expect(seen).toEqual([{ jsonrpc: "2.0", id: 1, result: { late: true } }]);
    expect(closeCode()).toBe(1000);
  });

  it("keeps the close code the other side sent", async () => {
    const url = await slowServer(10, 4401);
    const { stream, closeCode } = openWebSocketStream(url);
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 7, method: "initialize", params: {} } as never);
    const seen = await readAll(stream.readable);
    expect(seen).toHaveLength(1);
    expect(closeCode()).toBe(4401);
  });

  it("answers a frame that is not JSON with -32700 and a batch with -32600, and passes neither on", async () => {
    server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server?.once("listening", () => resolve()));
    const got: unknown[] = [];
    server.on("connection", (ws) => {
      ws.on("message", (data) => {
        got.push(JSON.parse(String(data)));
        if (got.length === 2) ws.close(1000);
      });
      ws.send("{not json");
      ws.send("[1,2]");
    });
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { stream } = openWebSocketStream(url);
    expect(await readAll(stream.readable)).toEqual([]);
    expect(got.map((m) => (m as { error: { code: number } }).error.code)).toEqual([-32700, -32600]);
  });

  it("errors its readable side with the HTTP status when the upgrade is refused", async () => {
    const { createServer } = await import("node:http");
    const http = createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
    try {
      const { stream } = openWebSocketStream(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
      await expect(readAll(stream.readable)).rejects.toThrow(/401/);
    } finally {
      http.close();
    }
  });
});
