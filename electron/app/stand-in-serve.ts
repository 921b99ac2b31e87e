/**
 * TEMPORARY stand-in for `acp-retry-inspector serve` until the hub is merged: serves the built
 * renderer and the provisional WebSocket protocol (renderer/bridge/hub-wire.ts) in front of an
 * app core, with the per-run token checked in constant time. `npm start` falls back to it when
 * the CLI has no `serve` yet, and the browser e2e tests run against it. Once `serve` exists,
 * both use `serve` and this file goes.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import { WebSocketServer } from "ws";
import { CLOSE_UNAUTHORIZED, type ClientMessage, HUB_SOCKET_PATH } from "../../renderer/bridge/hub-wire.js";
import type { AppCore } from "./app-core.js";
import { listenLoopback, staticFiles } from "./static-files.js";

/** A running stand-in hub. */
export interface StandInHub {
  /** The page URL without the token. */
  readonly url: string;
  readonly token: string;
  /** The page URL with the token, as `serve` prints it. */
  readonly urlWithToken: string;
  readonly core: AppCore;
  /** How many sockets passed the token check so far. */
  readonly acceptedSockets: () => number;
  /** Cuts every open socket, as a network blip would. */
  dropSockets(): void;
  close(): Promise<void>;
}

function sameToken(given: string | null, token: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Starts the stand-in hub serving `rendererDir` and `core` on 127.0.0.1 (`port` 0 picks a free one). */
export async function startStandInHub(rendererDir: string, core: AppCore, port = 0): Promise<StandInHub> {
  const token = randomBytes(24).toString("base64url");
  const { server, url } = await listenLoopback(staticFiles(rendererDir), port);
  const wss = new WebSocketServer({ noServer: true });
  const accepted = { count: 0 };
  attachSockets(server, wss, core, token, accepted);
  return {
    url,
    token,
    urlWithToken: `${url}?token=${encodeURIComponent(token)}`,
    core,
    acceptedSockets: () => accepted.count,
    dropSockets() {
      for (const c of wss.clients) c.terminate();
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await core.close();
    },
  };
}

function attachSockets(
  server: Server,
  wss: WebSocketServer,
  core: AppCore,
  token: string,
  accepted: { count: number },
): void {
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== HUB_SOCKET_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!sameToken(url.searchParams.get("token"), token)) {
        ws.close(CLOSE_UNAUTHORIZED, "unauthorized");
        return;
      }
      accepted.count++;
      let unsubscribe: (() => void) | undefined;
      ws.on("close", () => unsubscribe?.());
      ws.on("message", (data) => {
        let m: ClientMessage;
        try {
          m = JSON.parse(String(data)) as ClientMessage;
        } catch {
          return;
        }
        if (m.type === "subscribe") {
          unsubscribe?.();
          unsubscribe = core.subscribe(m.fromSeq, (batch) =>
            ws.send(JSON.stringify({ type: "batch", batch })),
          );
        } else if (m.type === "invoke") {
          core.invoke(m.op, m.args).then(
            (value) => ws.send(JSON.stringify({ type: "result", id: m.id, ok: true, value })),
            (err: unknown) =>
              ws.send(
                JSON.stringify({
                  type: "result",
                  id: m.id,
                  ok: false,
                  error: String((err as Error).message),
                }),
              ),
          );
        }
      });
    });
  });
}
