import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { uiLink } from "../../shared/hub/hub-auth.js";
import { HUB_PROTOCOL_VERSION, TAP_PATH, UI_PATH } from "../../shared/hub/protocol-version.js";
import { removeRendezvous, writeRendezvous } from "../hub-client/rendezvous.js";
import {
  DEFAULT_CONNECTION_LIMITS,
  LISTEN_BACKLOG,
  limitConnections,
} from "../platform/connection-limits.js";
import { EventFeed } from "./event-feed.js";
import { FAULT_ACK_TIMEOUT_MS, FaultBoard } from "./fault-board.js";
import { createOperationHandlers } from "./operation-handlers.js";
import { routeOperations } from "./operation-routes.js";
import { type ConformanceControl, ConformancePort } from "./ports/conformance-port.js";
import { type DemoControl, DemoPort } from "./ports/demo-port.js";
import { type ReplayControl, ReplaySlot } from "./replay-runner.js";
import { checkRequest, chosenProtocol, HUB_HOST, isApiPath, newHubToken } from "./request-guard.js";
import { contentSecurityPolicy, serveStatic } from "./static-files.js";
import { TapEndpoint } from "./tap-endpoint.js";
import { TapRegistry, type TapWatcher } from "./tap-registry.js";
import { TraceStore } from "./trace-store.js";
import { UiEndpoint } from "./ui-endpoint.js";

/** The largest trace a hub takes in one import unless told otherwise: 256 MiB. */
export const DEFAULT_IMPORT_LIMIT_BYTES = 256 << 20;

/** How to run a hub. Only `tracesDir` is required. */
export interface HubOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** The token clients must present; a fresh random 32-byte one by default. */
  readonly token?: string;
  /** Where each tap's trace is written. */
  readonly tracesDir: string;
  /** Folder of the UI build to serve (index.html and assets); a placeholder page when absent. */
  readonly staticDir?: string;
  /** Where to write the rendezvous file; no file when undefined. */
  readonly rendezvousPath?: string;
  /** Events kept in memory for late subscribers (default 50 000). */
  readonly ringSize?: number;
  /** Bytes of events kept in memory for late subscribers (default 64 MiB); the older go first. */
  readonly ringBytes?: number;
  /** Tap WebSockets open at once (default 256); over it an upgrade gets 503. */
  readonly maxTapSockets?: number;
  /** UI WebSockets open at once (default 32); over it an upgrade gets 503. */
  readonly maxUiSockets?: number;
  /** TCP connections open at once, WebSockets included (default 512); see `limitConnections`. */
  readonly maxConnections?: number;
  /** A connection that sends no complete request headers within this many ms is closed (default 5000). */
  readonly headersTimeoutMs?: number;
  /** Coalescing window of UI pushes in ms (default 25). */
  readonly flushMs?: number;
  /** How long `armFault` waits for the target taps to acknowledge a rule (default 5000 ms). */
  readonly faultAckTimeoutMs?: number;
  /** Largest accepted trace import (default `DEFAULT_IMPORT_LIMIT_BYTES`, 256 MiB). */
  readonly importLimitBytes?: number;
  /** Told of every tap and its stored records besides the tap registry (`serve --otlp`). */
  readonly tapWatchers?: readonly TapWatcher[];
}

/** A running hub. */
export interface RunningHub {
  readonly hubId: string;
  readonly port: number;
  readonly token: string;
  /** The UI link, its token in the fragment: `http://127.0.0.1:PORT/#token=...`. */
  readonly url: string;
  /** The folder the hub keeps its traces in. */
  readonly tracesDir: string;
  /** Plugs the built-in demo in: its status goes to every UI, their demo commands to it. Returns a detach. */
  attachDemo(demo: DemoControl): () => void;
  /** Plugs a conformance runner in: its board goes to every UI, their runs to it. Returns a detach. */
  attachConformance(conformance: ConformanceControl): () => void;
  /** Plugs a replay runner in (the `replay` operation). Returns a detach. */
  attachReplay(replay: ReplayControl): () => void;
  /** Stops accepting, closes every connection and trace file, removes the rendezvous file. */
  close(): Promise<void>;
}

const BASE_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
} as const;

/** One watcher that tells each of `watchers`, in order. */
function watchAll(watchers: readonly TapWatcher[]): TapWatcher {
  if (watchers.length === 1) return watchers[0] as TapWatcher;
  return {
    attached: (...a) => {
      for (const w of watchers) w.attached(...a);
    },
    records: (...a) => {
      for (const w of watchers) w.records(...a);
    },
    detached: (...a) => {
      for (const w of watchers) w.detached(...a);
    },
  };
}

/** Starts a hub on 127.0.0.1 (never any other address). */
export async function startHub(options: HubOptions): Promise<RunningHub> {
  const hubId = randomBytes(8).toString("hex");
  const token = options.token ?? newHubToken();
  const startedAt = new Date().toISOString();
  const store = new TraceStore(options.tracesDir);
  await store.init();
  const feed = new EventFeed({
    ringSize: options.ringSize ?? 50_000,
    ringBytes: options.ringBytes ?? 64 << 20,
    flushMs: options.flushMs ?? 25,
    maxBatch: 5_000,
    highWaterBytes: 8 << 20,
    traceIds: () => store.traceIds(),
  });
  let recordsIn = 0;
  const registry = new TapRegistry((id) => store.pathOf(id));
  const board = new FaultBoard(hubId.slice(0, 4), { list: () => registry.list() });
  const taps = new TapEndpoint({
    hubId,
    store,
    feed,
    board,
    countRecords: (n) => {
      recordsIn += n;
    },
    taps: watchAll([registry, ...(options.tapWatchers ?? [])]),
  });
  const demo = new DemoPort();
  const conformance = new ConformancePort();
  const replay = new ReplaySlot();
  const importLimitBytes = options.importLimitBytes ?? DEFAULT_IMPORT_LIMIT_BYTES;
  const handlers = createOperationHandlers({
    board,
    store,
    importLimitBytes,
    status: () => info(),
    taps: () => taps.attached,
    tapList: () => registry.list(),
    faultAckTimeoutMs: options.faultAckTimeoutMs ?? FAULT_ACK_TIMEOUT_MS,
    demo,
    conformance,
    replay,
  });
  const uis = new UiEndpoint(hubId, feed, board, handlers, demo, conformance);
  // Answer with the fixed subprotocol only: ws would otherwise pick the first one offered, which
  // may be the browser's token.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 << 20,
    handleProtocols: (offered) => chosenProtocol(offered),
  });
  let port = 0;
  /** WebSockets open (or in their handshake) per endpoint, and the most each may have. */
  const sockets = new Map([
    [taps as TapEndpoint | UiEndpoint, { open: 0, max: options.maxTapSockets ?? 256, name: "tap" }],
    [uis, { open: 0, max: options.maxUiSockets ?? 32, name: "UI" }],
  ]);

  const info = () => ({
    v: HUB_PROTOCOL_VERSION,
    hubId,
    pid: process.pid,
    port,
    startedAt,
    ...feed.position(),
    taps: taps.attached,
    recordsIn,
    uiSockets: sockets.get(uis)?.open ?? 0,
    maxUiSockets: sockets.get(uis)?.max ?? 0,
    rssBytes: process.memoryUsage().rss,
    heapUsedBytes: process.memoryUsage().heapUsed,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  });

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${HUB_HOST}:${port}`);
    const api = isApiPath(url.pathname);
    const refusal = checkRequest(req, url, port, token, api ? "api" : "static");
    const headers: Record<string, string> = { ...BASE_HEADERS };
    if (refusal) {
      res.writeHead(refusal.status, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end(`${refusal.reason}\n`);
      req.resume();
      return;
    }
    if (api) {
      connections.trust(req.socket as Socket);
      if (await routeOperations(req, res, url, handlers, importLimitBytes, headers)) return;
      res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end("no such operation\n");
      return;
    }
    // Below: the UI's static files only, served without the token (they carry no data).
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...headers, Allow: "GET" });
      res.end();
      return;
    }
    headers["Content-Security-Policy"] = contentSecurityPolicy(port);
    headers["X-Frame-Options"] = "DENY";
    if (!(await serveStatic(res, options.staticDir, url.pathname, headers))) {
      res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end("not found\n");
    }
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", `http://${HUB_HOST}:${port}`);
    const refusal = checkRequest(req, url, port, token, "upgrade");
    if (!refusal) connections.trust(req.socket as Socket);
    const endpoint = url.pathname === TAP_PATH ? taps : url.pathname === UI_PATH ? uis : undefined;
    const count = endpoint && sockets.get(endpoint);
    const full = !refusal && count && count.open >= count.max;
    if (refusal || !endpoint || !count || full) {
      const status = refusal?.status ?? (full ? 503 : 404);
      const reason =
        refusal?.reason ??
        (full
          ? `the hub already has ${count.max} ${count.name} connections (its limit)`
          : "no such endpoint");
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length + 1}\r\n\r\n${reason}\n`,
      );
      return;
    }
    count.open++;
    socket.once("close", () => count.open--);
    wss.handleUpgrade(req, socket, head, (ws) => endpoint.accept(ws));
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on("upgrade", onUpgrade);
  server.on("clientError", (_err, socket) => socket.destroy());
  const connections = limitConnections(server, {
    maxConnections: options.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections,
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HUB_HOST, LISTEN_BACKLOG, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
  const url = uiLink(`http://${HUB_HOST}:${port}`, token);
  if (options.rendezvousPath) {
    try {
      writeRendezvous(options.rendezvousPath, { v: 1, hubId, pid: process.pid, port, token, url, startedAt });
    } catch (err) {
      // a rendezvous refused (not to be trusted) or not writable: no hub left listening unannounced
      feed.close();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      throw err;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    hubId,
    port,
    token,
    url,
    tracesDir: options.tracesDir,
    attachDemo: (d) => demo.attach(d),
    attachConformance: (c) => conformance.attach(c),
    attachReplay: (r) => replay.attach(r),
    close() {
      closing ??= (async () => {
        if (options.rendezvousPath) removeRendezvous(options.rendezvousPath, hubId);
        feed.close();
        taps.closeAll();
        uis.closeAll();
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await store.close();
      })();
      return closing;
    },
  };
}
