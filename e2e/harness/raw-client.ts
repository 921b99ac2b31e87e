/**
 * A test as the client of a stdio tap: JSON-RPC requests written one per line to the proxy's
 * stdin, and what came back on its stdout read as answers by id.
 */
import type { ChildProcess } from "node:child_process";

/** One line the proxy wrote back, as the tests read it. */
export interface RawAnswer {
  readonly id?: unknown;
  readonly method?: string;
  readonly result?: Record<string, unknown>;
}

/** Writes JSON-RPC lines to `child`'s stdin and collects the answers it writes back. */
export function rawClient(child: ChildProcess) {
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  let id = 0;
  return {
    /** Sends a request; returns its id. */
    send(method: string, params: unknown): number {
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })}\n`);
      return id;
    },
    /** The answers to request `n` so far (zero or one, unless the peer answered twice). */
    answers: (n: number) =>
      out
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as RawAnswer)
        .filter((m) => m.id === n && m.method === undefined),
  };
}
