/**
 * Serves the demo agent remotely on one endpoint (`/acp` by default), with the SDK's server
 * transport: WebSocket upgrades and Streamable HTTP (POST + SSE) on the same path. Every remote
 * connection shares the one `DemoAgent`, so a retry on a new connection finds the original.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentInfo, demoAgentConnector } from "./agent-connection.js";
import type { DemoAgent } from "./demo-agent.js";

/** A running remote listener. */
export interface RemoteListener {
  /** `ws://host:port/path`. */
  readonly wsUrl: string;
  /** `http://host:port/path`. */
  readonly httpUrl: string;
  close(): Promise<void>;
}

/** Parses `--listen ws://HOST:PORT[/PATH]` (or http://); the path defaults to `/acp`. */
export function parseListenUrl(value: string): { host: string; port: number; path: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--listen expects a URL like ws://127.0.0.1:8080, got ${value}`);
  }
  if (!["ws:", "http:"].includes(url.protocol))
    throw new Error(`--listen expects ws:// or http://, got ${value}`);
  const port = url.port === "" ? 0 : Number(url.port);
  const path = url.pathname === "/" || url.pathname === "" ? "/acp" : url.pathname;
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port, path };
}

/** Starts listening; resolves once the port is bound. */
export async function listenRemote(
  agent: DemoAgent,
  info: AgentInfo,
  where: { host: string; port: number; path: string },
): Promise<RemoteListener> {
  // Loaded here, not at the top: a stdio agent never pays for the remote transport's modules.
  const { AcpServer } = await import("@agentclientprotocol/sdk/experimental/server");
  const { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } = await import(
    "@agentclientprotocol/sdk/experimental/node"
  );
  const { WebSocketServer } = await import("ws");
  const acp = new AcpServer({ agent: demoAgentConnector(agent, info) });
  const handleHttp = createNodeHttpHandler(acp);
  const webSockets = new WebSocketServer({ noServer: true });
  const handleUpgrade = createNodeWebSocketUpgradeHandler(acp, webSockets);
  const pathOf = (url: string | undefined) => new URL(url ?? "/", "http://localhost").pathname;

  const server: Server = createServer((req, res) => {
    if (pathOf(req.url) !== where.path) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
      return;
    }
    handleHttp(req, res);
  });
  server.on("upgrade", (req, socket, head) => {
    if (pathOf(req.url) !== where.path) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = where.host.includes(":") ? `[${where.host}]` : where.host;
  return {
    wsUrl: `ws://${hostPart}:${port}${where.path}`,
    httpUrl: `http://${hostPart}:${port}${where.path}`,
    async close() {
      await acp.close();
      webSockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
