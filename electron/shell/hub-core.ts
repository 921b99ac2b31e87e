/**
 * The `AppCore` over a hub: the UI feed through the hub's own `/ws/ui` endpoint and the operations
 * through its HTTP API, exactly what a browser UI uses, so both shells exercise one protocol.
 */
import { WebSocket } from "ws";
import { UI_PATH } from "../../shared/hub/protocol-version.js";
import { type OperationResults, parseOperationCall } from "../../shared/ops/operation.js";
import { callHub, type HubTarget } from "../hub-client/hub-client.js";
import { type AppCore, OperationError } from "./app-core.js";

/** Where the hub is, and what closing the core should also stop (the in-process hub). */
export interface HubCoreOptions {
  readonly port: number;
  readonly token: string;
  readonly url: string;
  readonly onClose?: () => Promise<void>;
}

async function hubJson(target: HubTarget, method: "GET" | "POST" | "DELETE", path: string, body?: unknown) {
  const r = await callHub(target, method, path, body);
  if (r.status >= 400) throw new OperationError(String(r.body.error ?? `hub answered ${r.status}`));
  return r.body;
}

/** Creates the adapter; nothing connects until `subscribe`. */
export function createHubCore(options: HubCoreOptions): AppCore {
  const target: HubTarget = { base: `http://127.0.0.1:${options.port}`, token: options.token };
  const sockets = new Set<WebSocket>();
  return {
    url: options.url,
    subscribe(after, onMessage) {
      const ws = new WebSocket(
        `ws://127.0.0.1:${options.port}${UI_PATH}?token=${encodeURIComponent(options.token)}`,
        { perMessageDeflate: false },
      );
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
      const call = parseOperationCall(op, args);
      if ("error" in call) throw new OperationError(call.error);
      let result: unknown;
      switch (call.op) {
        case "armFault":
          result = await hubJson(target, "POST", "/api/faults", call.args.spec);
          break;
        case "disarmFault":
          result = await hubJson(target, "DELETE", `/api/faults/${encodeURIComponent(call.args.id)}`);
          break;
        case "clearFaults":
          result = await hubJson(target, "DELETE", "/api/faults");
          break;
        case "listTraces":
          result = await hubJson(target, "GET", "/api/traces");
          break;
        case "demo":
          await hubJson(target, "POST", "/api/demo", call.args.command);
          result = { ok: true };
          break;
        case "conformanceStart":
          await hubJson(target, "POST", "/api/conformance/runs", call.args.request);
          result = { ok: true };
          break;
        case "conformanceCancel":
          await hubJson(target, "DELETE", "/api/conformance/runs");
          result = { ok: true };
          break;
        case "hubStatus":
          result = await hubJson(target, "GET", "/api/hub");
          break;
        case "readTrace": {
          const res = await fetch(`${target.base}/api/traces/${encodeURIComponent(call.args.id)}`, {
            headers: { Authorization: `Bearer ${target.token}` },
            signal: AbortSignal.timeout(60_000),
          });
          if (!res.ok) throw new OperationError(`the hub has no trace ${call.args.id} (${res.status})`);
          result = { text: await res.text() } satisfies OperationResults["readTrace"];
          break;
        }
      }
      return result as never;
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      sockets.clear();
      await options.onClose?.();
    },
  };
}
