/**
 * The bridge for the browser shell: the hub's UI WebSocket (`/ws/ui`, `shared/hub/ui-wire.ts`)
 * for the live feed and every operation of the table, and its HTTP API for operations that answer
 * with a whole file. It authenticates with the per-run token and nothing ambient: the socket
 * offers it as the `acp-ri.token.<token>` subprotocol (a browser cannot set a WebSocket's headers),
 * HTTP calls send `Authorization: Bearer`, and no cookie is ever sent. It reconnects with backoff
 * and resubscribes from the last hub seq it saw. A refused token stops it for good.
 */

import { socketProtocols } from "../../../shared/hub/hub-auth.js";
import { UI_PATH } from "../../../shared/hub/protocol-version.js";
import {
  type HubReply,
  type HubToUi,
  type UiToHub,
  uiOperationMessage,
} from "../../../shared/hub/ui-wire.js";
import { callOverHttp, type HttpTransport } from "../../../shared/ops/call-over-http.js";
import {
  type HubStatus,
  OPERATIONS,
  type OperationName,
  operationFunctions,
} from "../../../shared/ops/operations.js";
import { FeedCursor, parseHubMessage } from "./hub-message.js";
import type { ConnectionState, InspectorBridge } from "./inspector-bridge.js";

/** Where the hub is and how patiently to talk to it. */
export interface HubBridgeOptions {
  /** The page's URL; the hub that served it is the one to talk to. */
  readonly pageUrl: string;
  /** The per-run token (from the link's fragment). */
  readonly token: string;
  readonly minRetryMs?: number;
  readonly maxRetryMs?: number;
  /** How long a fault command may wait for its reply. */
  readonly replyTimeoutMs?: number;
}

/** The hub's UI socket URL for a page it served at `pageUrl` (no token: that goes in a subprotocol). */
export function hubSocketUrl(pageUrl: string): string {
  const page = new URL(pageUrl);
  const url = new URL(UI_PATH, page);
  url.protocol = page.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.toString();
}

/** Connects to the hub and returns the bridge; the first connection attempt starts at once. */
export function createHubBridge(options: HubBridgeOptions): InspectorBridge {
  const minRetry = options.minRetryMs ?? 250;
  const maxRetry = options.maxRetryMs ?? 5_000;
  const replyTimeout = options.replyTimeoutMs ?? 10_000;
  const origin = new URL(options.pageUrl).origin;
  const auth: Record<string, string> = { Authorization: `Bearer ${options.token}` };
  let state: ConnectionState = "connecting";
  const stateListeners = new Set<(s: ConnectionState) => void>();
  const pending = new Map<string, { resolve(r: HubReply): void; reject(e: Error): void; timer: number }>();
  let nextRef = 1;
  let socket: WebSocket | undefined;
  let retryMs = minRetry;
  let onMessage: ((m: HubToUi) => void) | undefined;
  /** Messages that arrived before anyone subscribed (the first hello and rule list). */
  const early: HubToUi[] = [];
  const cursor = new FeedCursor();

  const setState = (s: ConnectionState) => {
    if (s === state) return;
    state = s;
    for (const l of stateListeners) l(s);
  };
  const send = (m: UiToHub) => socket?.send(JSON.stringify(m));

  function connect(): void {
    const ws = new WebSocket(hubSocketUrl(options.pageUrl), socketProtocols(options.token));
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      retryMs = minRetry;
    };
    ws.onmessage = (e) => {
      const m = parseHubMessage(e.data);
      if (!m) return;
      if (m.t === "reply") {
        const p = m.ref === undefined ? undefined : pending.get(m.ref);
        if (p && m.ref !== undefined) {
          pending.delete(m.ref);
          clearTimeout(p.timer);
          p.resolve(m);
        }
        return;
      }
      cursor.see(m);
      if (m.t === "hello") {
        // Subscribe once the hub said which hub it is: a new hub means from its start.
        send({ t: "subscribe", after: cursor.after });
        setState("connected");
      }
      if (onMessage) onMessage(m);
      else early.push(m);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      for (const [ref, p] of pending) {
        clearTimeout(p.timer);
        p.reject(new Error("the connection to the hub was lost"));
        pending.delete(ref);
      }
      const retry = () => {
        setState("reconnecting");
        setTimeout(connect, retryMs);
        retryMs = Math.min(maxRetry, retryMs * 2);
      };
      if (opened) {
        retry();
        return;
      }
      // The upgrade failed: find out whether the hub refused our token, is at its cap of UI
      // sockets (a browser cannot read the 503 of a refused upgrade), or is just not there.
      fetch(`${origin}/api/hub`, { headers: auth, credentials: "omit", cache: "no-store" }).then(
        async (res) => {
          if (res.status === 401) return setState("unauthorized");
          const status = res.ok ? ((await res.json().catch(() => ({}))) as Partial<HubStatus>) : {};
          const cap = status.maxUiSockets;
          if (cap !== undefined && status.uiSockets !== undefined && status.uiSockets >= cap) {
            setState("refused-full");
            setTimeout(connect, retryMs);
            retryMs = Math.min(maxRetry, retryMs * 2);
            return;
          }
          retry();
        },
        retry,
      );
    };
  }

  /** Sends one operation over the UI socket and waits for its reply. */
  function overSocket(op: OperationName, args: Readonly<Record<string, unknown>>): Promise<unknown> {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error("not connected to the hub"));
    }
    const ref = String(nextRef++);
    return new Promise<HubReply>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        pending.delete(ref);
        reject(new Error(`the hub did not answer within ${replyTimeout / 1000} s`));
      }, replyTimeout);
      pending.set(ref, { resolve, reject, timer });
      send(uiOperationMessage(op, args, ref));
    }).then((reply) => {
      if (!reply.ok) throw new Error(reply.error);
      return reply.value;
    });
  }

  /** The HTTP API, for answers that are whole files (a trace can be far larger than a socket message should be). */
  const http: HttpTransport = async (request) => {
    const res = await fetch(origin + request.path, {
      method: request.method,
      headers: { ...auth, ...(request.contentType !== undefined && { "Content-Type": request.contentType }) },
      ...(request.body !== undefined && { body: request.body }),
      credentials: "omit",
      cache: "no-store",
    });
    if (res.status === 401) setState("unauthorized");
    return { status: res.status, text: await res.text() };
  };

  /** Every operation: over the socket, which keeps replies in order with the hub's pushes, or over HTTP for file answers. */
  const operations = operationFunctions((op, args) =>
    OPERATIONS[op].http.response === "file"
      ? callOverHttp(http, op, args)
      : (overSocket(op, args as Readonly<Record<string, unknown>>) as Promise<never>),
  );

  connect();

  return {
    shell: "browser",
    onConnectionChange(onChange) {
      stateListeners.add(onChange);
      onChange(state);
      return () => {
        stateListeners.delete(onChange);
      };
    },
    subscribe(handler) {
      onMessage = handler;
      for (const m of early.splice(0)) handler(m);
      return () => {
        if (onMessage === handler) onMessage = undefined;
      };
    },
    ...operations,
  };
}
