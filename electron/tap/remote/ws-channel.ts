import { WebSocket } from "ws";
import type { ClientChannel, ClientCloseWhy } from "./client-channel.js";

/** How long a closing WebSocket may take for its close handshake before it is cut. */
const CLOSE_HANDSHAKE_MS = 1_000;

/** A client connected over WebSocket: one text frame per message, each line sent exactly. */
export class WsChannel implements ClientChannel {
  readonly transport = "ws" as const;

  constructor(
    private readonly ws: WebSocket,
    readonly peer: string,
  ) {}

  send(line: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(line);
  }

  close(why?: ClientCloseWhy): void {
    if (this.ws.readyState === WebSocket.CLOSED || this.ws.readyState === WebSocket.CLOSING) return;
    this.ws.close(why?.code ?? 1000, why?.reason ?? "closed by acp-retry-inspector");
    setTimeout(() => this.ws.terminate(), CLOSE_HANDSHAKE_MS).unref();
  }
}
