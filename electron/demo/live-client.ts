/**
 * The demo client as a long-lived peer: the reference client's pieces (`ClientSubmissionTracker`,
 * `startSession`, `deliver`, `SessionObserver`, `openConnection`) kept connected so a UI can
 * submit prompts one by one. Every submission is delivered until it settles: resent with its key
 * after a timeout on the same connection, and after reconnecting (initialize, session/resume)
 * when the connection drops or the agent dies.
 */
import {
  ClientSubmissionTracker,
  type TrackedSubmission,
} from "../../shared/keys/client-submission-tracker.js";
import { randomUuid } from "../../shared/keys/uuid.js";
import { openConnection } from "../peers/client/agent-transport.js";
import { deliver, startSession } from "../peers/client/demo-client.js";
import { SessionObserver } from "../peers/client/session-observer.js";
import { JsonRpcPeer, RpcError } from "../peers/rpc/json-rpc-peer.js";

/** The client's connection state. */
export type LiveClientState = "idle" | "connecting" | "connected" | "reconnecting" | "closed";

/** Options of a `LiveDemoClient`. */
export interface LiveClientOptions {
  /** The tap's WebSocket URL (`ws://127.0.0.1:PORT/acp`). */
  readonly url: string;
  /** The tap front's bearer token. */
  readonly token: string;
  readonly cwd: string;
  /** How long one attempt waits for its answer before it is resent, ms. */
  readonly attemptTimeoutMs: number;
  /** Called after anything changed (a log line, a state change, an update). */
  readonly onChange: () => void;
}

const MAX_ATTEMPTS = 8;
const MAX_CONNECTIONS = 20;
const LOG_LINES = 12;

/** A connected demo client driven by a UI or a scenario. */
export class LiveDemoClient {
  readonly tracker = new ClientSubmissionTracker({ keyed: false });
  readonly observer: SessionObserver;
  private peer: JsonRpcPeer | undefined;
  private closing = false;
  private connections = 0;
  private state: LiveClientState = "idle";
  private readonly lines: string[] = [];
  private readonly texts = new Map<number, string>();
  private loop: Promise<void> | undefined;
  private closeCurrent: (() => Promise<void>) | undefined;

  constructor(private readonly o: LiveClientOptions) {
    this.observer = new SessionObserver(() => o.onChange());
  }

  /** Connects (and keeps reconnecting while prompts are pending); resolves once the session is open. */
  start(): Promise<void> {
    let opened: () => void = () => {};
    let failed: (err: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.loop = this.run(opened, failed);
    return ready;
  }

  /** Submits `text`: the key (if any) is created now, then the submission is delivered in the background. */
  async send(text: string, withKey: boolean): Promise<TrackedSubmission> {
    const s = await this.tracker.submit([{ type: "text", text }], withKey ? randomUuid() : undefined);
    this.texts.set(s.index, text);
    this.log(`#${s.index} submitted ${withKey ? `with key ${s.key}` : "without a key"}: ${text}`);
    const peer = this.peer;
    if (peer && !peer.ended) this.deliverOn(s, peer, this.connections);
    return s;
  }

  /** Sends `$/cancel_request` for every request of `s` still unanswered on the current connection. */
  cancel(s: TrackedSubmission): number {
    const peer = this.peer;
    if (!peer || peer.ended) throw new Error("not connected");
    const open = s.attempts.filter(
      (a) =>
        a.conn === this.connections &&
        (!a.outcome || (a.outcome.kind === "timeout" && a.lateMessageId === undefined)),
    );
    for (const a of open) peer.notify("$/cancel_request", { requestId: a.requestId });
    this.log(`#${s.index}: $/cancel_request for request ${open.map((a) => a.requestId).join(", ")}`);
    return open.length;
  }

  /** The prompt text of a submission. */
  textOf(index: number): string {
    return this.texts.get(index) ?? "";
  }

  /** Connection state, current connection number and session. */
  status(): { state: LiveClientState; conn: number; sessionId: string | null } {
    return { state: this.state, conn: this.connections, sessionId: this.tracker.sessionId ?? null };
  }

  /** Connections opened so far. */
  get connectionCount(): number {
    return this.connections;
  }

  /** The last lines of the client's log. */
  get recentLog(): readonly string[] {
    return this.lines;
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    this.closing = true;
    this.peer?.close();
    await this.closeCurrent?.();
    await this.loop;
    this.setState("closed");
  }

  private log(line: string): void {
    this.lines.push(line);
    if (this.lines.length > LOG_LINES) this.lines.splice(0, this.lines.length - LOG_LINES);
    this.o.onChange();
  }

  private setState(state: LiveClientState): void {
    this.state = state;
    this.o.onChange();
  }

  private deliverOn(s: TrackedSubmission, peer: JsonRpcPeer, conn: number): void {
    deliver(s, peer, this.tracker, conn, this.o.attemptTimeoutMs, MAX_ATTEMPTS, (l) => this.log(l)).then(
      () => this.o.onChange(),
      (err: unknown) => this.log(`#${s.index}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private async run(opened: () => void, failed: (err: Error) => void): Promise<void> {
    let first = true;
    while (!this.closing && this.connections < MAX_CONNECTIONS) {
      this.connections++;
      const conn = this.connections;
      this.setState(conn === 1 ? "connecting" : "reconnecting");
      let open: Awaited<ReturnType<typeof openConnection>>;
      try {
        open = await openConnection({ kind: "ws", url: this.o.url, token: this.o.token }, {}, conn);
      } catch (err) {
        this.log(`[conn ${conn}] could not connect: ${err instanceof Error ? err.message : String(err)}`);
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      this.closeCurrent = open.close;
      const peer = new JsonRpcPeer(open.stream, {
        onNotification: (method, params) => {
          if (method === "session/update") this.observer.handle(params);
        },
        onRequest: (request) => {
          throw new RpcError(-32601, `Method not found: ${request.method}`);
        },
      });
      try {
        await startSession(peer, this.tracker, this.o.cwd, this.o.attemptTimeoutMs * 2, conn, (l) =>
          this.log(l),
        );
        this.peer = peer;
        this.setState("connected");
        if (first) {
          first = false;
          opened();
        }
        for (const s of this.tracker.pending()) this.deliverOn(s, peer, conn);
        await peer.closed;
        this.log(`[conn ${conn}] connection closed`);
      } catch (err) {
        this.log(`[conn ${conn}] ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.peer = undefined;
        peer.close();
        await open.close();
      }
    }
    if (first) failed(new Error("the demo client could not open a session"));
  }
}
