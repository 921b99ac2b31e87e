/**
 * JSON-RPC over one WebSocket (the `ws` package), as the SDK's `Stream` type, for the reference
 * client. Unlike the SDK's `createWebSocketStream`, closing the writable side only starts the close
 * handshake: the readable side stays open until the socket has closed, so a message the other side
 * sent before it saw our close frame is still read. That is how the reference client hangs up
 * without throwing away an answer already on the wire (the truth oracle holds the analyzer's "the
 * client saw" to what the client recorded). Same frame rules as `nodeNdJsonStream`: one message per
 * text frame, not JSON gets -32700, a batch -32600.
 */

import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { type RawData, WebSocket } from "ws";
import { acceptIncoming, protocolErrorResponse } from "./incoming-message.js";

/** A WebSocket message stream and what its close said. */
export interface WebSocketMessageStream {
  readonly stream: Stream;
  /** The close code the other side sent (1000, 4401, ...), once the socket has closed. */
  closeCode(): number | undefined;
}

/** Dials `url` with `headers` on the upgrade request (e.g. `Authorization`). */
export function openWebSocketStream(
  url: string,
  headers: Record<string, string> = {},
): WebSocketMessageStream {
  const socket = new WebSocket(url, { headers });
  let code: number | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("WebSocket closed before it opened")));
  });
  opened.catch(() => undefined);
  const send = async (message: unknown) => {
    if (socket.readyState === WebSocket.CONNECTING) await opened;
    if (socket.readyState !== WebSocket.OPEN) throw new Error("WebSocket is closed");
    await new Promise<void>((resolve, reject) =>
      socket.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())),
    );
  };
  let queue: Promise<void> = Promise.resolve();
  const write = (message: unknown) => {
    const sent = queue.then(() => send(message));
    queue = sent.catch(() => undefined);
    return sent;
  };
  const hangUp = () => {
    try {
      socket.close(1000);
    } catch {
      // already closing
    }
  };

  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      let ended = false;
      socket.on("message", (data: RawData, isBinary: boolean) => {
        if (ended || isBinary) return;
        acceptIncoming(
          rawText(data),
          (message) => controller.enqueue(message),
          (error) => void write(protocolErrorResponse(error)).catch(() => undefined),
        );
      });
      socket.on("error", (err) => {
        if (ended) return;
        ended = true;
        controller.error(err);
      });
      socket.on("close", (closeCode: number) => {
        code = closeCode;
        if (ended) return;
        ended = true;
        controller.close();
      });
    },
    cancel: hangUp,
  });
  // Queued sends go first, then the close frame; reading goes on until the socket has closed.
  const writable = new WritableStream<AnyMessage>({
    write: (message) => write(message),
    close: async () => {
      await queue;
      hangUp();
    },
    abort: hangUp,
  });
  return { stream: { readable, writable }, closeCode: () => code };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}
