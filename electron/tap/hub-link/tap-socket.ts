/**
 * One WebSocket from a tap to a hub: it greets the hub with the tap's hello, hands on every message
 * the hub sends that decodes, and never keeps the tap process alive.
 */
import { WebSocket } from "ws";
import { TAP_PATH } from "../../../shared/hub/protocol-version.js";
import { decodeHubToTap, type HubToTap, type TapHello, type TapToHub } from "../../../shared/hub/tap-wire.js";
import type { HubAddress } from "./hub-finder.js";

/** What the tap side hears from its socket. */
export interface TapSocketEvents {
  /** A message of the hub's that decoded (others are ignored). */
  readonly onMessage: (m: HubToTap) => void;
  /** The socket closed, whoever closed it. */
  readonly onClose: () => void;
  readonly log: (line: string) => void;
}

/** A tap's connection to one hub. */
export class TapSocket {
  private readonly socket: WebSocket;

  /** Connects to `hub` and sends `hello` once open. */
  constructor(
    hub: HubAddress,
    hello: TapHello,
    private readonly events: TapSocketEvents,
  ) {
    const socket = new WebSocket(`ws://127.0.0.1:${hub.port}${TAP_PATH}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
      handshakeTimeout: 5_000,
      perMessageDeflate: false,
      // Masking defends HTTP intermediaries against scripted cache poisoning; a Node client talking
      // to 127.0.0.1 has no intermediary, and an all-zero mask lets ws skip a pass over every byte.
      generateMask: (mask: Buffer) => {
        mask.fill(0);
      },
    });
    this.socket = socket;
    socket.on("upgrade", (res) => res.socket.unref()); // the link never keeps the tap process alive
    socket.on("open", () => this.send(hello));
    socket.on("message", (data) => {
      const m = decodeHubToTap(data.toString());
      if (m) events.onMessage(m);
    });
    socket.on("error", (err) => events.log(`hub link: ${err.message}`));
    socket.on("close", () => events.onClose());
  }

  /** True once open and until closing: batches can go out. */
  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Bytes queued on the socket and not yet written out. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Sends one message (a failure is logged, never thrown). */
  send(m: TapToHub): void {
    try {
      this.socket.send(JSON.stringify(m));
    } catch (err) {
      this.events.log(`hub link: send failed: ${String(err)}`);
    }
  }

  /** Closes the socket, cutting it off if the hub does not answer the close within 500 ms. */
  close(): Promise<void> {
    const socket = this.socket;
    return new Promise<void>((resolve) => {
      socket.once("close", () => resolve());
      socket.close(1000, "tap done");
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 500).unref();
    });
  }
}
