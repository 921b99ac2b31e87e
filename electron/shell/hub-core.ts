/**
 * The `AppCore` over a hub: the UI feed through the hub's own `/ws/ui` endpoint and the operations
 * through its HTTP API, exactly what a browser UI uses, so both shells exercise one protocol.
 */
import { WebSocket } from "ws";
import { UI_PATH } from "../../shared/hub/protocol-version.js";
import { OperationRefused } from "../../shared/ops/call-over-http.js";
import { callOperation, type HubTarget } from "../hub-client/hub-client.js";
import { type AppCore, OperationError } from "./app-core.js";

/** Where the hub is, and what closing the core should also stop (the in-process hub). */
export interface HubCoreOptions {
  readonly port: number;
  readonly token: string;
  /** Where the token is for a browser: the hub's rendezvous file, if it wrote one. */
  readonly tokenFile?: string;
  readonly onClose?: () => Promise<void>;
}

/** Creates the adapter; nothing connects until `subscribe`. */
export function createHubCore(options: HubCoreOptions): AppCore {
  const target: HubTarget = { base: `http://127.0.0.1:${options.port}`, token: options.token };
  const sockets = new Set<WebSocket>();
  return {
    url: `http://127.0.0.1:${options.port}/`,
    tokenFile: options.tokenFile,
    subscribe(after, onMessage) {
      const ws = new WebSocket(`ws://127.0.0.1:${options.port}${UI_PATH}`, {
        headers: { Authorization: `Bearer ${options.token}` },
        perMessageDeflate: false,
      });
      let stopped = false;
      sockets.add(ws);
      ws.on("open", () => ws.send(JSON.stringify({ t: "subscribe", after })));
      ws.on("message", (data, isBinary) => {
        if (!isBinary && !stopped) onMessage(data.toString());
      });
      ws.on("close", () => sockets.delete(ws));
      ws.on("error", () => {});
      return () => {
        stopped = true;
        sockets.delete(ws);
        ws.close();
      };
    },
    async invoke(op, args) {
      try {
        return await callOperation(target, op, (args ?? {}) as Record<string, unknown>, 60_000);
      } catch (err) {
        if (err instanceof OperationRefused) throw new OperationError(err.message);
        throw err;
      }
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      sockets.clear();
      await options.onClose?.();
    },
  };
}
