/**
 * URL targets go through the real tap: each case starts its own remote front (`proxy --listen
 * ws://127.0.0.1:0 --agent-url URL --trace <case>.jsonl`, see `FrontProcess`) and dials it over the
 * target's transport (a `ws(s)://` target over WebSocket, an `http(s)://` one over Streamable HTTP)
 * with the SDK's client transports, sending the front's bearer token; the front forwards each connection to the agent over its own
 * upstream connection of the same kind and records every frame exactly, connections numbered in
 * the order the case opens them. A restart runs the user's `--restart-cmd` through the shell.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { bearer } from "../platform/front-token.js";
import type { AgentDialer, CaseConnection } from "./agent-dialer.js";
import { skip } from "./case-outcome.js";
import { FrontProcess } from "./front-process.js";
import { settlesWithin } from "./settles-within.js";

const CLOSED = 3;

/** What a URL dialer needs. */
export interface UrlDialerOptions {
  readonly url: string;
  readonly restartCommand?: string;
  /** The case trace (written by the front). */
  readonly traceFile: string;
  /** How to run this tool's CLI, e.g. `[process.execPath, "/path/to/cli.js"]`. */
  readonly cliCommand: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Receives the front's stderr lines, e.g. for `--verbose`. */
  readonly onStderr?: (line: string) => void;
}

/** What `close` needs to end a connection: the WebSocket the SDK opened, or when the HTTP client finished closing. */
interface ConnectionEnd {
  socket?: { close(): void; terminate(): void; readyState: number };
  /** Resolves once the HTTP client's close (its `DELETE`) is done. */
  httpClosed?: Promise<void>;
}

/** A URL `AgentDialer` through a remote front of its own. */
export class UrlDialer implements AgentDialer {
  readonly transport: "ws" | "http";
  private front: FrontProcess | undefined;
  private readonly open_: Array<() => Promise<void>> = [];

  constructor(private readonly options: UrlDialerOptions) {
    this.transport = /^wss?:\/\//i.test(options.url) ? "ws" : "http";
  }

  async open(conn: number): Promise<CaseConnection> {
    this.front ??= new FrontProcess({
      cliCommand: this.options.cliCommand,
      agentUrl: this.options.url,
      traceFile: this.options.traceFile,
      cwd: this.options.cwd,
      env: this.options.env,
      onStderr: this.options.onStderr,
    });
    const urls = await this.front.ready.catch((err: unknown) => {
      throw new Error(`cannot open connection #${conn}: ${err instanceof Error ? err.message : String(err)}`);
    });
    const end: ConnectionEnd = {};
    const headers = { Authorization: bearer(urls.token) };
    const stream =
      this.transport === "ws"
        ? await this.webSocket(urls.ws, headers, end)
        : await this.http(urls.http, headers, end);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      // The client's JsonRpcPeer holds the writer and closes it first; this ends what is left, and
      // waits until the front has seen the client go (before `finish` stops it).
      if (!stream.writable.locked) await settlesWithin(stream.writable.close(), 2000);
      if (end.httpClosed) await settlesWithin(end.httpClosed, 2000);
      const ws = end.socket;
      if (ws && ws.readyState !== CLOSED) {
        ws.close();
        const gone = new Promise<void>((resolve) =>
          (ws as unknown as NodeJS.EventEmitter).once("close", () => resolve()),
        );
        if (!(await settlesWithin(gone, 1000))) ws.terminate();
      }
    };
    this.open_.push(close);
    return { stream, close };
  }

  async restart(timeoutMs: number): Promise<string> {
    const command = this.options.restartCommand;
    if (command === undefined) skip("no --restart-cmd given: the suite cannot restart a remote agent");
    const child = spawn(command, { shell: true, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-500);
    });
    const exit = new Promise<number | null>((resolve) => {
      child.once("error", () => resolve(null));
      child.once("close", (code) => resolve(code));
    });
    let code: number | null | undefined;
    void exit.then((c) => {
      code = c;
    });
    if (!(await settlesWithin(exit, timeoutMs))) {
      child.kill("SIGKILL");
      throw new Error(`the restart command did not finish within ${timeoutMs} ms`);
    }
    if (code !== 0) throw new Error(`the restart command failed (exit ${code}): ${stderr.trim()}`);
    return `ran the restart command (${command})`;
  }

  /** Closes every connection, then stops the front (always, bounded): its trace is then complete. */
  async finish(): Promise<string | undefined> {
    await Promise.all(this.open_.map((close) => close()));
    if (!this.front) return undefined;
    await this.front.stop();
    return existsSync(this.options.traceFile) ? this.options.traceFile : undefined;
  }

  private async webSocket(url: string, headers: Record<string, string>, end: ConnectionEnd): Promise<Stream> {
    // Loaded on demand: a stdio run never pays for them. Node 20 has no global WebSocket.
    const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
    const { WebSocket } = await import("ws");
    // Keeps the socket the SDK opens, so `close` can end it even when the SDK does not.
    class TrackedWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        end.socket = this;
      }
    }
    return createWebSocketStream(url, { WebSocket: TrackedWebSocket as never, headers });
  }

  private async http(url: string, headers: Record<string, string>, end: ConnectionEnd): Promise<Stream> {
    const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
    const inner = createHttpStream(url, { headers });
    // The SDK's close resolves once its `DELETE` was answered: note when that happened.
    const writer = inner.writable.getWriter();
    let done = () => {};
    end.httpClosed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const writable = new WritableStream<AnyMessage>({
      write: (message) => writer.write(message),
      close: () => writer.close().finally(done),
      abort: (reason) => writer.abort(reason).finally(done),
    });
    return { readable: inner.readable, writable };
  }
}
