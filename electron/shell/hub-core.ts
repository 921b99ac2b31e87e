/**
 * The `AppCore` over a hub: the UI feed through the hub's own `/ws/ui` endpoint and the operations
 * through its HTTP API, exactly what a browser UI uses, so both shells exercise one protocol.
 */
import { WebSocket } from "ws";
import { UI_PATH } from "../../shared/hub/protocol-version.js";
import { OperationRefused } from "../../shared/ops/call-over-http.js";
import { DEFAULT_IMPORT_LIMIT_BYTES } from "../hub/hub-server.js";
import { callOperation, type HubTarget } from "../hub-client/hub-client.js";
import { type AppCore, OperationError } from "./app-core.js";

/** Where the hub is, and what closing the core should also stop (the in-process hub). */
export interface HubCoreOptions {
  readonly port: number;
  readonly token: string;
  /** Where the token is for a browser: the hub's rendezvous file, if it wrote one. */
  readonly tokenFile?: string;
  readonly onClose?: () => Promise<void>;
  /** The hub's import limit (default `DEFAULT_IMPORT_LIMIT_BYTES`): a larger trace is refused here, before it is sent. */
  readonly importLimitBytes?: number;
}

/**
 * Why an import is refused before it is sent, or undefined. A page can hand main a trace of any
 * size; the hub would refuse one over its limit by its length, but only after main had copied it
 * into a request body and sent it. A string's UTF-8 size is at least its length, so a long one is
 * refused without measuring.
 */
function importTooLarge(op: string, args: unknown, limit: number): string | undefined {
  if (op !== "importTrace" || typeof args !== "object" || args === null) return undefined;
  const text = (args as { text?: unknown }).text;
  if (typeof text !== "string") return undefined;
  if (text.length > limit || Buffer.byteLength(text, "utf8") > limit)
    return `importTrace: trace larger than ${limit} bytes`;
  return undefined;
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
      const tooLarge = importTooLarge(op, args, options.importLimitBytes ?? DEFAULT_IMPORT_LIMIT_BYTES);
      if (tooLarge !== undefined) throw new OperationError(tooLarge);
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
