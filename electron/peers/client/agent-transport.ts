/**
 * How the demo client reaches an agent: spawning a command and speaking over its stdio, or
 * dialling a URL over WebSocket (our own stream, `../rpc/ws-stream.ts`) or Streamable HTTP (the SDK's
 * client transport). Each call opens
 * one fresh connection; reconnecting is opening again (respawning, or redialling).
 */

import { type ChildProcess, spawn } from "node:child_process";
import type { Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { LineCutter } from "../../../shared/protocol/line-cutter.js";
import { nodeNdJsonStream } from "../rpc/ndjson-stream.js";

/** Where the agent is; a remote one may need a bearer token (a `proxy --listen` front does). */
export type AgentTarget =
  | { readonly kind: "stdio"; readonly command: readonly string[]; readonly cwd?: string }
  | { readonly kind: "ws"; readonly url: string; readonly token?: string }
  | { readonly kind: "http"; readonly url: string; readonly token?: string };

/** Why a connection failed, as far as the transport can tell. */
export interface ConnectionFailure {
  /** One line: `connection refused (...)`, `401 ...`, `agent missing: ...`, `agent exited with code N`. */
  readonly reason: string;
  /** Trying again cannot help (the agent command does not exist, the token was refused). */
  readonly fatal: boolean;
}

/** One open connection to the agent. */
export interface OpenConnection {
  readonly stream: Stream;
  /** Ends the connection (a spawned agent gets its stdin closed, then SIGTERM if it lingers). */
  close(): Promise<void>;
  /** Why the connection failed (read it after `close`), or undefined when the transport saw nothing wrong. */
  failure(): ConnectionFailure | undefined;
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
      // Our own stream, not the SDK's: its readable ends when the socket has closed, not when we
      // hang up, so an answer on the wire as the client hangs up is still read (ws-stream.ts).
      const { openWebSocketStream } = await import("../rpc/ws-stream.js");
      const ws = openWebSocketStream(target.url, authHeaders(target.token));
      // A tap closes with 4401 when the remote agent behind it answered 401.
      return watched(ws.stream, () =>
        ws.closeCode() === UNAUTHORIZED_CLOSE_CODE ? describeRemoteFailure({ status: 401 }) : undefined,
      );
    }
    case "http": {
      const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
      return watched(createHttpStream(target.url, { headers: authHeaders(target.token) }));
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

/** The HTTP status in a transport error: `Unexpected server response: 401` (ws), or a `status` member (the SDK's HTTP errors). */
function httpStatus(err: unknown): number | undefined {
  const own = (err as { status?: unknown } | null)?.status;
  if (typeof own === "number") return own;
  const m = /\b(?:response|status)[: ]+(\d{3})\b/i.exec(err instanceof Error ? err.message : String(err));
  return m ? Number(m[1]) : undefined;
}

/** The socket error code in a transport error or its cause (`ECONNREFUSED`, ...). */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * The WebSocket close code a tap (`proxy --listen --agent-url`) closes a client with when the remote
 * agent behind it answered 401: a private code (4000-4999) ending in the HTTP status.
 */
export const UNAUTHORIZED_CLOSE_CODE = 4401;

/** A remote transport's error in words: refused, unauthorised, not found, or the error's own message. */
export function describeRemoteFailure(err: unknown): ConnectionFailure {
  const status = httpStatus(err);
  if (status === 401)
    return {
      reason:
        "401: the server wants a token (none was accepted: give the right one with --token-file; behind a tap, the tap's --agent-token-file)",
      fatal: true,
    };
  if (status === 403)
    return {
      reason: "403 Forbidden: the agent refused the token (give the right one with --token-file)",
      fatal: true,
    };
  if (status !== undefined) return { reason: `the agent answered HTTP ${status}`, fatal: status === 404 };
  const code = errorCode(err);
  const text = err instanceof Error ? err.message : String(err);
  if (code === "ECONNREFUSED") return { reason: `connection refused (${text})`, fatal: false };
  if (code === "ENOTFOUND") return { reason: `host not found (${text})`, fatal: false };
  return { reason: code ? `${code}: ${text}` : text, fatal: false };
}

/** `stream` with its read errors kept, so `failure()` can say why the connection ended (`closedWhy`: what its close said). */
function watched(
  stream: Stream,
  closedWhy: () => ConnectionFailure | undefined = () => undefined,
): OpenConnection {
  let failed: ConnectionFailure | undefined;
  const reader = stream.readable.getReader();
  const readable = new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        failed ??= describeRemoteFailure(err);
        controller.error(err);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const out = { readable, writable: stream.writable } as Stream;
  return { stream: out, close: () => closeStream(stream), failure: () => failed ?? closedWhy() };
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
  let spawnError: NodeJS.ErrnoException | undefined;
  let lastStderr = "";
  let closing = false;
  let killed = false;
  let exitedFirst = false;
  child.on("error", (err: NodeJS.ErrnoException) => {
    if (child.pid === undefined) spawnError = err;
  });
  child.stdin.on("error", () => undefined);
  const stderrLines = new LineCutter();
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    for (const line of stderrLines.push(chunk)) {
      if (line.trim() !== "") lastStderr = line.slice(0, 200);
      hooks.onAgentStderr?.(line);
    }
  });
  // A command that could not be started never emits `exit`: its `error` ends it.
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once("exit", () => {
        exitedFirst = !closing;
        resolve();
      });
      child.once("error", () => {
        if (child.pid === undefined) resolve();
      });
    }
  });
  return {
    stream: nodeNdJsonStream(child.stdin, child.stdout),
    async close() {
      closing = true;
      child.stdin.end();
      const timer = setTimeout(() => {
        killed = true;
        child.kill("SIGTERM");
      }, 2000);
      await exited;
      clearTimeout(timer);
    },
    failure() {
      if (spawnError)
        return {
          reason: `agent missing: cannot start '${file}' (${spawnError.code === "ENOENT" ? "ENOENT: no such file or directory" : spawnError.message})`,
          fatal: spawnError.code === "ENOENT" || spawnError.code === "EACCES",
        };
      const said = lastStderr ? `; its last stderr line: ${lastStderr}` : "";
      if (child.signalCode !== null && !killed)
        return { reason: `agent was killed by ${child.signalCode}${said}`, fatal: false };
      if (child.exitCode !== null && (exitedFirst || child.exitCode !== 0))
        return { reason: `agent exited with code ${child.exitCode}${said}`, fatal: false };
      return undefined;
    },
  };
}
