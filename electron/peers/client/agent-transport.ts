/**
 * How the demo client reaches an agent: spawning a command and speaking over its stdio, or
 * dialling a URL over WebSocket or Streamable HTTP (the SDK's client transports). Each call opens
 * one fresh connection; reconnecting is opening again (respawning, or redialling).
 */

import { type ChildProcess, spawn } from "node:child_process";
import type { Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { nodeNdJsonStream } from "../rpc/ndjson-stream.js";

/** Where the agent is; a remote one may need a bearer token (a `proxy --listen` front does). */
export type AgentTarget =
  | { readonly kind: "stdio"; readonly command: readonly string[]; readonly cwd?: string }
  | { readonly kind: "ws"; readonly url: string; readonly token?: string }
  | { readonly kind: "http"; readonly url: string; readonly token?: string };

/** One open connection to the agent. */
export interface OpenConnection {
  readonly stream: Stream;
  /** Ends the connection (a spawned agent gets its stdin closed, then SIGTERM if it lingers). */
  close(): Promise<void>;
}

/** Observers for tests and demos. */
export interface TransportHooks {
  /** Extra arguments for the agent spawned for connection `conn` (1, 2, ...), e.g. a different fault per restart. */
  agentArgs?(conn: number): readonly string[];
  /** Called with every agent process the client spawns. */
  onSpawn?(child: ChildProcess): void;
  /** Called with every line a spawned agent writes to stderr. */
  onAgentStderr?(line: string): void;
}

/** The target for a URL: `ws://`/`wss://` is WebSocket, `http://`/`https://` Streamable HTTP; `token` is sent as `Authorization: Bearer`. */
export function targetForUrl(url: string, token?: string): AgentTarget {
  const auth = token !== undefined ? { token } : {};
  if (/^wss?:\/\//i.test(url)) return { kind: "ws", url, ...auth };
  if (/^https?:\/\//i.test(url)) return { kind: "http", url, ...auth };
  throw new Error(`expected a ws://, wss://, http:// or https:// URL, got ${url}`);
}

/** Opens connection number `conn` to `target`. */
export async function openConnection(
  target: AgentTarget,
  hooks: TransportHooks = {},
  conn = 1,
): Promise<OpenConnection> {
  switch (target.kind) {
    case "stdio":
      return spawnAgent([...target.command, ...(hooks.agentArgs?.(conn) ?? [])], target.cwd, hooks);
    case "ws": {
      // Loaded on demand so a stdio client never pays for them. Node 20 has no global WebSocket.
      const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
      const { WebSocket } = await import("ws");
      const stream = createWebSocketStream(target.url, {
        WebSocket: WebSocket as never,
        headers: authHeaders(target.token),
      });
      return { stream, close: () => closeStream(stream) };
    }
    case "http": {
      const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
      const stream = createHttpStream(target.url, { headers: authHeaders(target.token) });
      return { stream, close: () => closeStream(stream) };
    }
  }
}

/** `Authorization: Bearer <token>` when there is a token (sent on the upgrade, or on every HTTP request). */
function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

async function closeStream(stream: Stream): Promise<void> {
  await stream.writable.close().catch(() => undefined);
}

function spawnAgent(
  command: readonly string[],
  cwd: string | undefined,
  hooks: TransportHooks,
): OpenConnection {
  const [file, ...args] = command;
  if (!file) throw new Error("no agent command given");
  const child = spawn(file, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
  hooks.onSpawn?.(child);
  child.on("error", () => undefined);
  child.stdin.on("error", () => undefined);
  let stderrLine = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderrLine += chunk;
    let nl = stderrLine.indexOf("\n");
    while (nl >= 0) {
      hooks.onAgentStderr?.(stderrLine.slice(0, nl));
      stderrLine = stderrLine.slice(nl + 1);
      nl = stderrLine.indexOf("\n");
    }
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    stream: nodeNdJsonStream(child.stdin, child.stdout),
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGTERM"), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
