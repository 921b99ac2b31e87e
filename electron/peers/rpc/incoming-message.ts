/**
 * What a reference peer does with one incoming JSON-RPC text (a line on stdio, a WebSocket text
 * frame): an object is passed on; text that is not JSON is answered with -32700, a batch or a
 * non-object with -32600, both with id null (the SDK's transports follow the same rules).
 */

import type { AnyMessage } from "@agentclientprotocol/sdk/experimental/v2";

/** Parses `text`; passes an object to `accept`, or reports a protocol error to `reject`. Blank text is ignored. */
export function acceptIncoming(
  text: string,
  accept: (message: AnyMessage) => void,
  reject: (error: { code: number; message: string }) => void,
): void {
  if (text.trim() === "") return;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    reject({ code: -32700, message: "Parse error" });
    return;
  }
  if (Array.isArray(message))
    reject({ code: -32600, message: "Invalid request: JSON-RPC batches are not supported" });
  else if (message !== null && typeof message === "object") accept(message as AnyMessage);
  else reject({ code: -32600, message: "Invalid request" });
}

/** The answer to a protocol error: a JSON-RPC error response with id null. */
export function protocolErrorResponse(error: { code: number; message: string }): AnyMessage {
  return { jsonrpc: "2.0", id: null, error } as unknown as AnyMessage;
}
