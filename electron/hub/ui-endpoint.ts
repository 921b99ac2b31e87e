import type { WebSocket } from "ws";
import { HUB_PROTOCOL_VERSION } from "../../shared/hub/protocol-version.js";
import { decodeUiMessage, type HubToUi } from "../../shared/hub/ui-wire.js";
import type { EventFeed } from "./event-feed.js";
import type { FaultBoard } from "./fault-board.js";
import { type OperationHandlers, runOperation } from "./operation-handlers.js";
import type { ConformancePort } from "./ports/conformance-port.js";
import type { DemoPort } from "./ports/demo-port.js";

/**
 * The hub side of UI connections: `hello` with the ring position, then the UI subscribes from a
 * seq and receives batched `events`. Every other message is one operation of the table
 * (`shared/ops/operations.ts`), answered with `reply`; the armed rules, the demo's status and the
 * conformance board are pushed on every change. No UI message can name or start a command.
 */
export class UiEndpoint {
  private readonly sockets = new Set<WebSocket>();

  constructor(
    private readonly hubId: string,
    private readonly feed: EventFeed,
    private readonly board: FaultBoard,
    private readonly handlers: OperationHandlers,
    private readonly demo?: DemoPort,
    private readonly conformance?: ConformancePort,
  ) {
    board.onChange(() => this.broadcast(this.boardMessage()));
    demo?.onStatus((status) => this.broadcast({ t: "demo-status", status }));
    conformance?.onStatus((b) => this.broadcast({ t: "conformance-status", board: b }));
  }

  /** Serves one UI WebSocket (already authenticated). */
  accept(ws: WebSocket): void {
    const send = (m: HubToUi) => ws.send(JSON.stringify(m));
    let unsubscribe: (() => void) | undefined;
    this.sockets.add(ws);
    send({ t: "hello", v: HUB_PROTOCOL_VERSION, hubId: this.hubId, ...this.feed.position() });
    send(this.boardMessage());
    const demoStatus = this.demo?.status();
    if (demoStatus) send({ t: "demo-status", status: demoStatus });
    const conformanceBoard = this.conformance?.status();
    if (conformanceBoard) send({ t: "conformance-status", board: conformanceBoard });
    ws.on("message", (data, isBinary) => {
      const m = isBinary ? "binary frames are not part of the protocol" : decodeUiMessage(data.toString());
      if (typeof m === "string") {
        send({ t: "error", message: m });
        return;
      }
      if (m.t === "subscribe") {
        unsubscribe?.();
        unsubscribe = this.feed.subscribe(
          {
            sendText: (text) => ws.send(text),
            get bufferedAmount() {
              return ws.bufferedAmount;
            },
          },
          m.after,
        );
        return;
      }
      void runOperation(this.handlers, m.op, m.args).then((answer) => {
        if (ws.readyState === ws.OPEN)
          send({ t: "reply", ...(m.ref !== undefined && { ref: m.ref }), ...answer });
      });
    });
    ws.on("close", () => {
      unsubscribe?.();
      this.sockets.delete(ws);
    });
    ws.on("error", () => {});
  }

  /** Closes every UI connection (hub shutdown). */
  closeAll(): void {
    for (const ws of this.sockets) ws.close(1001, "hub shutting down");
  }

  private boardMessage(): HubToUi {
    return this.board.message();
  }

  private broadcast(m: HubToUi): void {
    const text = JSON.stringify(m);
    for (const ws of this.sockets) ws.send(text);
  }
}
