/**
 * The bridge for the browser shell: one WebSocket to the hub, authenticated with the per-run
 * token. Reconnects with backoff and resubscribes from the last seq it saw, so a hub restart or
 * a network blip loses nothing the hub still holds. A wrong token stops it for good.
 */
import type { EventBatch } from "../../shared/app/app-event.js";
import type { OperationArgs, OperationName, OperationResults } from "../../shared/app/operation.js";
import { CLOSE_UNAUTHORIZED, type ClientMessage, parseHubMessage } from "./hub-wire.js";
import type { ConnectionState, InspectorBridge } from "./inspector-bridge.js";

/** Where the hub is and how patiently to reconnect. */
export interface HubBridgeOptions {
  /** The socket URL, token included (see `hubSocketUrl`). */
  readonly socketUrl: string;
  readonly minRetryMs?: number;
  readonly maxRetryMs?: number;
  /** How long an operation may wait for its answer. */
  readonly invokeTimeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Connects to the hub and returns the bridge; the first connection attempt starts at once. */
export function createHubBridge(options: HubBridgeOptions): InspectorBridge {
  const minRetry = options.minRetryMs ?? 250;
  const maxRetry = options.maxRetryMs ?? 5_000;
  const invokeTimeout = options.invokeTimeoutMs ?? 30_000;
  let state: ConnectionState = "connecting";
  const stateListeners = new Set<(s: ConnectionState) => void>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let retryMs = minRetry;
  let subscription: { onBatch: (b: EventBatch) => void; lastSeq: number } | undefined;

  const setState = (s: ConnectionState) => {
    if (s === state) return;
    state = s;
    for (const l of stateListeners) l(s);
  };
  const send = (m: ClientMessage) => socket?.send(JSON.stringify(m));

  function connect(): void {
    const ws = new WebSocket(options.socketUrl);
    socket = ws;
    ws.onopen = () => {
      retryMs = minRetry;
      setState("connected");
      if (subscription) send({ type: "subscribe", fromSeq: subscription.lastSeq });
    };
    ws.onmessage = (e) => {
      const m = parseHubMessage(e.data);
      if (!m) return;
      if (m.type === "batch") {
        if (!subscription) return;
        const last = m.batch.events.at(-1);
        if (last) subscription.lastSeq = Math.max(subscription.lastSeq, last.seq);
        subscription.onBatch(m.batch);
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
    };
    ws.onclose = (e) => {
      if (socket !== ws) return;
      socket = undefined;
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        p.reject(new Error("the connection to the inspector was lost"));
        pending.delete(id);
      }
      if (e.code === CLOSE_UNAUTHORIZED || e.code === 1008) {
        setState("unauthorized");
        return;
      }
      setState("reconnecting");
      setTimeout(connect, retryMs);
      retryMs = Math.min(maxRetry, retryMs * 2);
    };
  }

  function invoke<K extends OperationName>(op: K, args: OperationArgs[K]): Promise<OperationResults[K]> {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error("not connected to the inspector"));
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${op} got no answer within ${invokeTimeout / 1000} s`));
      }, invokeTimeout);
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      send({ type: "invoke", id, op, args });
    });
  }

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
    subscribe(fromSeq, onBatch) {
      const sub = { onBatch, lastSeq: fromSeq };
      subscription = sub;
      if (state === "connected") send({ type: "subscribe", fromSeq });
      return () => {
        if (subscription === sub) subscription = undefined;
      };
    },
    clear: () => invoke("clear", {}),
    setPaused: (paused) => invoke("setPaused", { paused }),
    exportTrace: (redacted) => invoke("exportTrace", { redacted }),
    importTrace: (fileName, text) => invoke("importTrace", { fileName, text }),
    injectFault: (action, delayMs) =>
      invoke("injectFault", delayMs === undefined ? { action } : { action, delayMs }),
  };
}
