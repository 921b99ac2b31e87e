import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { parseJsonObject } from "../../../shared/protocol/json-object.js";
import {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  LISTEN_BACKLOG,
  limitConnections,
} from "../../platform/connection-limits.js";
import { bearerMatches } from "../../platform/front-token.js";
import { isLoopbackHost, isOwnOrigin } from "../../platform/loopback-guard.js";
import { type FrontDeps, type ServedConnection, serveConnection } from "./front-connection.js";
import { HttpChannel } from "./http-channel.js";
import type { ListenAddress } from "./listen-url.js";
import { WsChannel } from "./ws-channel.js";

/** The largest client message (POST body or WebSocket message) the front takes: the SDK's cap. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How long `close()` waits for connections' agents to end before it stops waiting. */
const CLOSE_GRACE_MS = 3_000;

/** Who may connect, and how many at a time. */
export interface FrontAdmission {
  /** Every request must carry `Authorization: Bearer <token>`; `null` only with `--no-auth`. */
  readonly token: string | null;
  /** Client connections served at the same time (each has its agent process or upstream connection). */
  readonly maxAgents: number;
  /**
   * TCP connections held and how long one may stay silent, as the hub's (default
   * `DEFAULT_CONNECTION_LIMITS`: 512, 5 s); see `limitConnections`. Connections that showed the
   * token are dropped last.
   */
  readonly connections?: Partial<ConnectionLimits>;
}

/** WebSocket close code for a connection refused because the front is full ("Try Again Later"). */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** A running remote front. */
export interface RemoteFront {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly wsUrl: string;
  /** `http://127.0.0.1:PORT/acp` */
  readonly httpUrl: string;
  readonly port: number;
  /** Stops listening, ends every connection and waits (briefly) for their agents. */
  close(): Promise<void>;
}

const CONNECTION_ID = "acp-connection-id";
const UNAUTHORIZED =
  "Unauthorized: send Authorization: Bearer <token> (proxy --listen prints its token on stderr and writes it next to its trace)";
const SESSION_ID = "acp-session-id";

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_MESSAGE_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks, size)));
    req.on("error", () => resolve(null));
  });
}

function rawToBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * The remote front of `proxy --listen`: one endpoint (`/acp` by default) on 127.0.0.1 serving both
 * ACP remote transports, WebSocket (upgrade answered `101` with `Acp-Connection-Id`, one text
 * frame per message) and Streamable HTTP (`POST` per message, `200` + `Acp-Connection-Id` for
 * `initialize`, `202` otherwise, SSE `GET` streams per connection and per session, `DELETE` to
 * end). Every client connection is a numbered connection of the trace with its own agent (see
 * `serveConnection`). Requests whose `Host` is not this loopback address, or that carry a foreign
 * `Origin` (a web page), are refused with `403`; requests without the front's bearer token with
 * `401`. At most `maxAgents` connections are served at once: one more is refused with a reason
 * (`503` for an HTTP `initialize`, a WebSocket close `1013`) and a `note` in the trace. The TCP
 * connections themselves have the hub's limits (`limitConnections`): a cap, the oldest silent or
 * tokenless connection dropped over it, and a header deadline, so idle sockets cannot lock out
 * the token holder.
 */
export async function startRemoteFront(
  where: ListenAddress,
  deps: FrontDeps,
  admission: FrontAdmission,
): Promise<RemoteFront> {
  let nextConn = 1;
  let port = 0;
  const channels = new Map<string, { channel: HttpChannel; served: ServedConnection }>();
  const served = new Set<ServedConnection>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });

  const track = (s: ServedConnection) => {
    served.add(s);
    void s.done.then(() => served.delete(s));
    return s;
  };
  const allowed = (req: IncomingMessage): "ok" | "forbidden" | "unauthorized" | "not-found" => {
    if (!isLoopbackHost(header(req, "host"), port) || !isOwnOrigin(header(req, "origin"), port))
      return "forbidden";
    if (admission.token !== null) {
      if (!bearerMatches(header(req, "authorization"), admission.token)) return "unauthorized";
      // with --no-auth no connection is told apart: all of them go oldest first over the cap
      connections.trust(req.socket as Socket);
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    return path === where.path ? "ok" : "not-found";
  };
  const peerOf = (req: IncomingMessage) =>
    `${req.socket.remoteAddress ?? "?"}:${req.socket.remotePort ?? "?"}`;
  /** Why a new connection is refused now (the front is full), or `null`; a refusal is noted in the trace. */
  const full = (req: IncomingMessage): string | null => {
    if (served.size < admission.maxAgents) return null;
    const reason = `too many connections: ${served.size} agent(s) running, the most this front serves (--max-agents ${admission.maxAgents}); try again later`;
    deps.trace.emit({
      type: "note",
      level: "warn",
      text: `refused a connection from ${peerOf(req)}: ${reason}`,
    });
    return reason;
  };

  async function onPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = header(req, "content-type")?.split(";", 1)[0]?.trim().toLowerCase();
    if (type !== "application/json") return text(res, 415, "Unsupported Media Type");
    const body = await readBody(req);
    if (body === null) return text(res, 413, "Message too large");
    const message = parseJsonObject(body.toString("utf8"));
    const isInitialize = message?.method === "initialize" && "id" in message;
    const connectionId = header(req, CONNECTION_ID);
    if (!connectionId) {
      if (!isInitialize || !message) return text(res, 400, "Missing Acp-Connection-Id");
      const refused = full(req);
      if (refused !== null) {
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1" }).end(refused);
        return;
      }
      return onInitialize(req, res, body, message);
    }
    const entry = channels.get(connectionId);
    if (!entry || entry.channel.isClosed) return text(res, 404, "Unknown Acp-Connection-Id");
    if (isInitialize) return text(res, 400, "Initialize not allowed on existing connection");
    entry.channel.noteClientMessage(message, header(req, SESSION_ID));
    entry.served.input(body);
    res.writeHead(202).end();
  }

  async function onInitialize(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    message: Record<string, unknown>,
  ): Promise<void> {
    const channel = new HttpChannel(peerOf(req));
    const s = track(serveConnection(channel, nextConn++, deps));
    channels.set(channel.id, { channel, served: s });
    channel.onClose(() => {
      channels.delete(channel.id);
      s.clientGone();
    });
    const answer = channel.awaitInitialize(message.id);
    const abandon = () => {
      if (!res.writableEnded) channel.close();
    };
    res.on("close", abandon);
    s.input(body);
    const line = await answer;
    res.off("close", abandon);
    if (res.destroyed) return;
    if (line === null) return text(res, 502, "The agent closed the connection before answering initialize");
    res.writeHead(200, { "Content-Type": "application/json", "Acp-Connection-Id": channel.id }).end(line);
  }

  function onGet(req: IncomingMessage, res: ServerResponse): void {
    if (!header(req, "accept")?.toLowerCase().includes("text/event-stream")) {
      text(res, 406, "Not Acceptable");
      return;
    }
    const connectionId = header(req, CONNECTION_ID);
    if (!connectionId) {
      text(res, 400, "Missing Acp-Connection-Id");
      return;
    }
    const entry = channels.get(connectionId);
    if (!entry || entry.channel.isClosed) {
      text(res, 404, "Unknown Acp-Connection-Id");
      return;
    }
    if (!entry.channel.attach(header(req, SESSION_ID), res))
      text(res, 409, "Outbound stream already has an active receiver");
  }

  function onDelete(req: IncomingMessage, res: ServerResponse): void {
    const connectionId = header(req, CONNECTION_ID);
    if (!connectionId) {
      text(res, 400, "Missing Acp-Connection-Id");
      return;
    }
    const entry = channels.get(connectionId);
    if (!entry) {
      text(res, 404, "Unknown Acp-Connection-Id");
      return;
    }
    entry.served.clientGone();
    res.writeHead(202).end();
  }

  const server = createServer((req, res) => {
    const check = allowed(req);
    if (check === "forbidden") return text(res, 403, "Forbidden");
    if (check === "unauthorized") {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": "Bearer" });
      res.end(UNAUTHORIZED);
      return;
    }
    if (check === "not-found") return text(res, 404, "Not Found");
    if (req.method === "POST") void onPost(req, res).catch(() => text(res, 500, "Internal error"));
    else if (req.method === "GET") onGet(req, res);
    else if (req.method === "DELETE") onDelete(req, res);
    else text(res, 405, "Method Not Allowed");
  });

  server.on("clientError", (_err, socket) => socket.destroy());
  const connections = limitConnections(server, {
    maxConnections: admission.connections?.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections,
    headersTimeoutMs: admission.connections?.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
  });

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const check = allowed(req);
    if (check === "unauthorized") {
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(UNAUTHORIZED)}\r\nConnection: close\r\n\r\n${UNAUTHORIZED}`,
      );
      return;
    }
    if (check !== "ok") {
      socket.end(
        `HTTP/1.1 ${check === "forbidden" ? "403 Forbidden" : "404 Not Found"}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    const refused = full(req);
    if (refused !== null) {
      // Accepted only to say why: a WebSocket client sees the close reason, not an HTTP body.
      wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
        ws.on("error", () => {});
        ws.close(CLOSE_TRY_AGAIN_LATER, refused.slice(0, 123));
      });
      return;
    }
    const id = randomUUID();
    const addHeader = (headers: string[]) => headers.push(`Acp-Connection-Id: ${id}`);
    wss.once("headers", addHeader);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const s = track(serveConnection(new WsChannel(ws, peerOf(req)), nextConn++, deps));
      ws.on("message", (data: RawData) => s.input(rawToBuffer(data)));
      ws.on("close", () => s.clientGone());
      ws.on("error", () => {});
    });
    wss.off("headers", addHeader);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(where.port, where.host, LISTEN_BACKLOG, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    wsUrl: `ws://127.0.0.1:${port}${where.path}`,
    httpUrl: `http://127.0.0.1:${port}${where.path}`,
    async close() {
      server.close();
      for (const s of served) s.clientGone();
      for (const { channel } of channels.values()) channel.close();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...served].map((s) => s.done)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
    },
  };
}
