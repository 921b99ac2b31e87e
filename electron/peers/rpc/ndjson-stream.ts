/**
 * Newline-delimited JSON-RPC over a Node byte stream pair, as the SDK's `Stream` type. The
 * reference peers use this instead of the SDK's `ndJsonStream` only to start fast (the SDK's v2
 * entry loads every schema, which costs about half a second per spawned agent). Same rules:
 * one message per line, a line that is not JSON gets -32700, a batch gets -32600, both with id null.
 */

import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/experimental/v2";

/** Wraps `input` (lines in) and `output` (lines out) as a message stream. */
export function nodeNdJsonStream(output: Writable, input: Readable): Stream {
  const write = (message: unknown) =>
    new Promise<void>((resolve, reject) => {
      if (output.destroyed || output.writableEnded) return reject(new Error("output closed"));
      output.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  const protocolError = (code: number, message: string) =>
    write({ jsonrpc: "2.0", id: null, error: { code, message } }).catch(() => undefined);

  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      let buffered = "";
      const onLine = (line: string) => {
        if (line.trim() === "") return;
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          void protocolError(-32700, "Parse error");
          return;
        }
        if (Array.isArray(message))
          void protocolError(-32600, "Invalid request: JSON-RPC batches are not supported");
        else if (message !== null && typeof message === "object") controller.enqueue(message as AnyMessage);
        else void protocolError(-32600, "Invalid request");
      };
      input.setEncoding("utf8");
      input.on("data", (chunk: string) => {
        buffered += chunk;
        let newline = buffered.indexOf("\n");
        while (newline >= 0) {
          onLine(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf("\n");
        }
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
