/**
 * Newline-delimited JSON-RPC over a Node byte stream pair, as the SDK's `Stream` type. The
 * reference peers use this instead of the SDK's `ndJsonStream` only to start fast (the SDK's v2
 * entry loads every schema, which costs about half a second per spawned agent). Same rules:
 * one message per line, a line that is not JSON gets -32700, a batch gets -32600, both with id null.
 */

import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { LineCutter } from "../../../shared/protocol/line-cutter.js";
import { acceptIncoming, protocolErrorResponse } from "./incoming-message.js";

/** Wraps `input` (lines in) and `output` (lines out) as a message stream. */
export function nodeNdJsonStream(output: Writable, input: Readable): Stream {
  const write = (message: unknown) =>
    new Promise<void>((resolve, reject) => {
      if (output.destroyed || output.writableEnded) return reject(new Error("output closed"));
      output.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  const protocolError = (error: { code: number; message: string }) =>
    write(protocolErrorResponse(error)).catch(() => undefined);

  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      const lines = new LineCutter();
      const onLine = (line: string) => {
        acceptIncoming(
          line,
          (message) => controller.enqueue(message),
          (error) => void protocolError(error),
        );
      };
      input.setEncoding("utf8");
      input.on("data", (chunk: string) => {
        for (const line of lines.push(chunk)) onLine(line);
      });
      const end = () => {
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      input.once("end", end);
      input.once("close", end);
      input.once("error", end);
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write: (message) => write(message),
    close: () => {
      output.end();
    },
  });
  return { readable, writable };
}
