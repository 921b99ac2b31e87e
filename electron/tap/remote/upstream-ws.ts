/** The WebSocket side of an upstream connection: one text frame per message, both ways. */

import { type RawData, WebSocket } from "ws";
import {
  type UpstreamChannel,
  type UpstreamEvents,
  type UpstreamRefusal,
  type UpstreamTarget,
  unauthorizedReason,
  upstreamAuthHeaders,
} from "./upstream-channel.js";

/** How long the agent may take to accept the WebSocket. */
const HANDSHAKE_MS = 10_000;

function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** An upstream WebSocket to `ws(s)://` agent: messages sent before it opened wait for it, in order. */
export class WsUpstream implements UpstreamChannel {
  private readonly socket: WebSocket;
  private readonly queued: string[] = [];
  private ended = false;

  constructor(
    private readonly target: UpstreamTarget,
    private readonly events: UpstreamEvents,
  ) {
    const socket = new WebSocket(target.url, {
      perMessageDeflate: false,
      handshakeTimeout: HANDSHAKE_MS,
      headers: upstreamAuthHeaders(target),
    });
    this.socket = socket;
    socket.on("open", () => {
      for (const line of this.queued.splice(0)) socket.send(line);
    });
    socket.on("message", (data: RawData) => events.message(bytesOf(data)));
    socket.on("error", (err) => {
      // ws refuses a non-101 answer to the upgrade with "Unexpected server response: 401".
      if (/\bresponse: 401\b/.test(err.message)) this.end(unauthorizedReason(this.target), "unauthorized");
      else this.end(`cannot reach the agent at ${this.target.url}: ${err.message}`);
    });
    socket.on("close", () => this.end("agent closed the connection"));
  }

  send(line: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(line);
    else if (this.socket.readyState === WebSocket.CONNECTING) this.queued.push(line);
  }

  close(): void {
    this.socket.close(1000);
  }

  private end(reason: string, refusal?: UpstreamRefusal): void {
    if (this.ended) return;
    this.ended = true;
    this.events.closed(reason, refusal);
  }
}
