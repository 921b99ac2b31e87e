/**
 * URL targets: each connection dials the agent over WebSocket (`ws://`, `wss://`) or Streamable
 * HTTP (`http://`, `https://`) with the SDK's client transports, and the suite records its own
 * frames (`ClientSideRecorder`). WebSocket frames are recorded as the exact text on the wire; HTTP
 * messages as the SDK hands them over (re-serialised, noted in the trace). A restart runs the
 * user's `--restart-cmd` through the shell.
 */

import { spawn } from "node:child_process";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/experimental/v2";
import type { AgentLink, LinkConnection } from "./agent-link.js";
import { skip } from "./case-outcome.js";
import { ClientSideRecorder } from "./client-side-recorder.js";
import { settlesWithin } from "./settles-within.js";

const CLOSED = 3;

/** What a URL link needs. */
export interface UrlLinkOptions {
  readonly url: string;
  readonly restartCommand?: string;
  readonly traceFile: string;
  readonly tool: string;
}

/** A URL `AgentLink` that records the suite's own frames. */
export class UrlLink implements AgentLink {
  readonly transport: "ws" | "http";
  private readonly recorder: ClientSideRecorder;
  private readonly open_: Array<() => Promise<void>> = [];

  constructor(private readonly options: UrlLinkOptions) {
    this.transport = /^wss?:\/\//i.test(options.url) ? "ws" : "http";
    this.recorder = new ClientSideRecorder(options.traceFile, options.tool, this.transport, options.url);
    if (this.transport === "http")
      this.recorder.note(
        "Streamable HTTP: frames are recorded as the SDK transport parsed them (re-serialised)",
      );
  }

  async open(conn: number): Promise<LinkConnection> {
    const { url } = this.options;
    this.recorder.open(conn, this.transport, url);
    const socket: { current?: { close(): void; terminate(): void; readyState: number } } = {};
    const stream = this.transport === "ws" ? await this.webSocket(conn, socket) : await this.http(conn);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      // The client's JsonRpcPeer holds the writer and closes it first; this ends what is left.
      if (!stream.writable.locked) await settlesWithin(stream.writable.close(), 2000);
      const ws = socket.current;
      if (ws && ws.readyState !== CLOSED) {
        ws.close();
        const gone = new Promise<void>((resolve) =>
          (ws as unknown as NodeJS.EventEmitter).once("close", () => resolve()),
        );
        if (!(await settlesWithin(gone, 1000))) ws.terminate();
      }
      this.recorder.close(conn, "client closed the connection");
    };
    this.open_.push(close);
    return { stream, close };
  }

  async restart(timeoutMs: number): Promise<string> {
    const command = this.options.restartCommand;
    if (command === undefined) skip("no --restart-cmd given: the suite cannot restart a remote agent");
    this.recorder.note(`running the restart command: ${command}`);
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

  async finish(): Promise<string | undefined> {
    await Promise.all(this.open_.map((close) => close()));
    await this.recorder.finish();
    return this.options.traceFile;
  }

  private async webSocket(
    conn: number,
    socket: { current?: { close(): void; terminate(): void; readyState: number } },
  ): Promise<Stream> {
    // Loaded on demand: a stdio run never pays for them. Node 20 has no global WebSocket.
    const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
    const { WebSocket } = await import("ws");
    const recorder = this.recorder;
    // The SDK sends `JSON.stringify(message)` as one text frame and parses each frame it gets: a
    // socket that logs both sides sees the exact text on the wire, before the SDK acts on it.
    class RecordingWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        socket.current = this;
        this.on("close", (code: number) => recorder.close(conn, `WebSocket closed (code ${code})`));
        this.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
          const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          recorder.received(conn, isBinary ? bytes : bytes.toString("utf8"));
        });
      }
      override send(data: unknown, ...rest: unknown[]): void {
        recorder.sent(conn, String(data));
        (super.send as (...a: unknown[]) => void)(data, ...rest);
      }
    }
    return createWebSocketStream(this.options.url, { WebSocket: RecordingWebSocket as never });
  }

  private async http(conn: number): Promise<Stream> {
    const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
    const inner = createHttpStream(this.options.url);
    const recorder = this.recorder;
    const readable = inner.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform(message, controller) {
          recorder.received(conn, JSON.stringify(message));
          controller.enqueue(message);
        },
      }),
    );
    const writer = inner.writable.getWriter();
    const writable = new WritableStream<AnyMessage>({
      write(message) {
        recorder.sent(conn, JSON.stringify(message));
        return writer.write(message);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return { readable, writable };
  }
}
