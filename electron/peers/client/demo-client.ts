/**
 * The demo client: submits prompts with one idempotency key each, and delivers every pending
 * submission until it is answered: on a timeout it resends on the same connection; when the
 * connection drops or the agent exits it reconnects (respawns or redials), sends `initialize` and
 * `session/resume`, and resends every pending submission with its same key.
 */

import {
  ClientSubmissionTracker,
  type TrackedSubmission,
} from "../../../shared/keys/client-submission-tracker.js";
import { randomUuid } from "../../../shared/keys/uuid.js";
import { ConnectionClosedError, JsonRpcPeer, RpcError } from "../rpc/json-rpc-peer.js";
import { type AgentTarget, openConnection, type TransportHooks } from "./agent-transport.js";
import { PendingSubmissionFile } from "./pending-file.js";
import { type ObservedUpdates, SessionObserver } from "./session-observer.js";

/**
 * Ways the demo client can break the RFD's client rules on purpose, to show that the client suite
 * (`conformance --client`) catches each one (docs/demo-peers.md):
 * - `new-key-on-retry`: every resend gets a fresh key;
 * - `no-retry`: a lost answer (timeout, lost connection) ends the client: nothing is resent;
 * - `reuse-key`: every submission gets the first submission's key;
 * - `bad-key`: keys of 288 characters;
 * - `no-resume`: after a reconnect it resends without `session/resume`;
 * - `resend-session-new`: a `session/new` whose answer was lost is sent again on the next connection.
 */
export type Misbehaviour =
  | "new-key-on-retry"
  | "no-retry"
  | "reuse-key"
  | "bad-key"
  | "no-resume"
  | "resend-session-new";

/** Every misbehaviour, for `--misbehave`. */
export const MISBEHAVIOURS: readonly Misbehaviour[] = [
  "new-key-on-retry",
  "no-retry",
  "reuse-key",
  "bad-key",
  "no-resume",
  "resend-session-new",
];

/** `session/new` got no answer: the client does not send it again (it could create a second session). */
export class SessionNewLost extends Error {}

/** Options of `runDemoClient`. */
export interface DemoClientOptions extends TransportHooks {
  readonly target: AgentTarget;
  /** Prompt texts, one submission each. */
  readonly prompts: readonly string[];
  /** Send keys (default true); false is the unsafe client. */
  readonly keyed?: boolean;
  /** File for pending submissions; pending ones found there are resent first. */
  readonly pendingFile?: string;
  /** A session to resume instead of creating one. */
  readonly sessionId?: string;
  readonly cwd: string;
  /** How long one attempt may wait for its answer, ms (default 30000). */
  readonly attemptTimeoutMs?: number;
  /** How long `initialize` and `session/new`/`resume` may wait on each connection, ms (default: `attemptTimeoutMs`). */
  readonly setupTimeoutMs?: number;
  /** Attempts per submission before giving up (default 6). */
  readonly maxAttempts?: number;
  /** Connections to open before giving up (default 50). */
  readonly maxConnections?: number;
  /** Connections in a row that may fail before any progress (no session set up) before giving up (default 10). */
  readonly maxFailedConnections?: number;
  /** After every submission is answered, wait until the session is idle (default true). */
  readonly waitIdle?: boolean;
  /**
   * Pause before the first reconnect, ms (default 50); it doubles with every connection in a row
   * that fails before setting up the session, up to `maxReconnectDelayMs`.
   */
  readonly reconnectDelayMs?: number;
  /** The longest pause between reconnects, ms (default 5000). */
  readonly maxReconnectDelayMs?: number;
  /** Pending input older than this is shown, not resent, ms (default 1 h). */
  readonly maxPendingAgeMs?: number;
  /** Progress lines for humans. */
  readonly log?: (line: string) => void;
  /** Every `session/update` payload, as it arrives. */
  readonly onUpdate?: (update: Record<string, unknown>) => void;
  /** Break one client rule on purpose (see `Misbehaviour`); default none. */
  readonly misbehave?: Misbehaviour;
  /** Send one submission at a time, oldest first, instead of all at once (default false). */
  readonly oneAtATime?: boolean;
}

/** The `--json` output of the demo client (docs/demo-peers.md documents it). */
export interface ClientReport {
  readonly sessionId: string | null;
  readonly transport: AgentTarget["kind"];
  readonly keyed: boolean;
  /** Connections opened (1 when nothing went wrong). */
  readonly connections: number;
  /** True when there was a submission, every one got a messageId and (with waitIdle) the session went idle. */
  readonly ok: boolean;
  readonly submissions: readonly TrackedSubmission[];
  readonly observed: ObservedUpdates;
}

const PROMPT_TIMEOUT = Symbol("timeout");

/** The pause before reconnecting after `failures` connections in a row that failed: `base`, doubled each time, at most `max`. */
export function reconnectDelay(failures: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

function timeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof PROMPT_TIMEOUT> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<typeof PROMPT_TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(PROMPT_TIMEOUT), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** How long the client keeps reading after it hangs up, for answers already on the wire. */
const CLOSE_GRACE_MS = 1000;

/** Runs the demo client to completion and reports every submission's attempts. */
export async function runDemoClient(options: DemoClientOptions): Promise<ClientReport> {
  const keyed = options.keyed ?? true;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 6;
  const maxConnections = options.maxConnections ?? 50;
  const waitIdle = options.waitIdle ?? true;
  const log = options.log ?? (() => undefined);
  const misbehave = options.misbehave;
  let firstKey: string | undefined;
  const tracker = new ClientSubmissionTracker({
    keyed,
    store: options.pendingFile ? new PendingSubmissionFile(options.pendingFile) : undefined,
    ...(misbehave === "reuse-key" && { newKey: () => (firstKey ??= randomUuid()) }),
    ...(misbehave === "bad-key" && { newKey: () => randomUuid().repeat(8) }),
  });
  await tracker.restore();
  await tracker.forgetSettled();
  for (const s of await tracker.markStale(options.maxPendingAgeMs)) {
    log(`#${s.index} has been pending since ${new Date(s.submittedAt).toISOString()}: shown, not resent`);
  }
  if (options.sessionId) await tracker.setSessionId(options.sessionId);
  for (const text of options.prompts) {
    const s = await tracker.submit([{ type: "text", text }]);
    log(`#${s.index} submitted${s.key ? ` with key ${s.key}` : " without a key"}: ${text}`);
  }

  const observer = new SessionObserver(options.onUpdate);
  const maxFailed = options.maxFailedConnections ?? 10;
  let connections = 0;
  let idle = !waitIdle;
  /** Connections in a row that failed before the session was set up (the back-off grows with it). */
  let failedInARow = 0;
  /** Why the last connection failed, for the give-up reason. */
  let lastFailure: string | undefined;
  /** Stop reconnecting: trying again cannot help. */
  let hopeless = false;
  while (
    (tracker.pending().length > 0 || !idle) &&
    connections < maxConnections &&
    failedInARow < maxFailed &&
    !hopeless
  ) {
    if (connections > 0) {
      const ms = reconnectDelay(
        Math.max(1, failedInARow),
        options.reconnectDelayMs ?? 50,
        options.maxReconnectDelayMs ?? 5000,
      );
      await new Promise((r) => setTimeout(r, ms));
    }
    connections++;
    const conn = connections;
    let open: Awaited<ReturnType<typeof openConnection>>;
    try {
      open = await openConnection(options.target, options, conn);
    } catch (err) {
      lastFailure = err instanceof Error ? err.message : String(err);
      failedInARow++;
      log(`[conn ${conn}] could not connect: ${lastFailure}`);
      continue;
    }
    let setUp = false;
    const peer = new JsonRpcPeer(open.stream, {
      onNotification: (method, params) => {
        if (method === "session/update") observer.handle(params);
      },
      onRequest: (request) => {
        throw new RpcError(-32601, `Method not found: ${request.method}`);
      },
    });
    try {
      await startSession(
        peer,
        tracker,
        options.cwd,
        options.setupTimeoutMs ?? attemptTimeoutMs,
        conn,
        log,
        misbehave,
        {
          ...(options.sessionId === undefined && { newSessionIfRefused: "unprompted" as const }),
        },
      );
      setUp = true;
      failedInARow = 0;
      // All pending submissions at once (prompts queue in the session), or one at a time, oldest
      // first, as a user submits them (`oneAtATime`, for the client suite's runs).
      let results: readonly ("settled" | "disconnected" | "lost")[];
      const send = (s: TrackedSubmission) =>
        deliver(s, peer, tracker, conn, attemptTimeoutMs, maxAttempts, log, misbehave);
      if (options.oneAtATime) {
        const seen: ("settled" | "disconnected" | "lost")[] = [];
        for (const s of tracker.pending()) {
          const result = await send(s);
          seen.push(result);
          if (result !== "settled") break;
        }
        results = seen;
      } else {
        results = await Promise.all(tracker.pending().map(send));
      }
      const lostOne = results.includes("lost");
      const disconnected = results.includes("disconnected");
      if (lostOne) {
        // `no-retry`: a lost answer ends the client, as for a client that never resends.
        for (const s of tracker.pending())
          await tracker.giveUp(s, "an answer was lost and this client does not resend");
        break;
      }
      if (disconnected) continue;
      if (!idle) idle = await waitForIdle(peer, tracker, options.cwd, observer, attemptTimeoutMs * 4);
    } catch (err) {
      if (err instanceof SessionNewLost && misbehave !== "resend-session-new") {
        // Sending session/new again could create a second session: the user decides (run the client again).
        for (const s of tracker.pending())
          await tracker.giveUp(s, `${err.message}; not sent again (it could create a second session)`);
        break;
      }
      if (err instanceof RpcError && err.code === -32002) {
        // The session is gone: resending cannot help.
        for (const s of tracker.pending()) await tracker.giveUp(s, `session not found: ${err.message}`);
        break;
      }
      lastFailure = err instanceof Error ? err.message : String(err);
    } finally {
      // Reading goes on until the other side has closed too: an answer already on its way when the
      // client hangs up is still received and recorded (the truth oracle holds the analyzer to it).
      await peer.end(CLOSE_GRACE_MS);
      await open.close();
    }
    // What the transport saw (refused, 401, the agent missing or exited) says more than "connection closed".
    const failure = open.failure();
    if (failure) {
      lastFailure = failure.reason;
      hopeless = failure.fatal;
    }
    if (!setUp) failedInARow++;
    if (failure || !setUp)
      log(
        `[conn ${conn}] ${lastFailure ?? "connection closed"}${hopeless ? ": not reconnecting (trying again cannot help)" : ": reconnecting"}`,
      );
  }
  const stopped = hopeless
    ? lastFailure
    : failedInARow >= maxFailed
      ? `${failedInARow} connections in a row failed; the last: ${lastFailure ?? "connection closed"}`
      : connections >= maxConnections
        ? `gave up after ${connections} connections; the last failure: ${lastFailure ?? "none"}`
        : undefined;
  if (stopped !== undefined) {
    for (const s of tracker.pending()) await tracker.giveUp(s, stopped);
    log(`gave up: ${stopped}`);
  }
  await tracker.flush();
  const submissions = tracker.all();
  return {
    sessionId: tracker.sessionId ?? null,
    transport: options.target.kind,
    keyed,
    connections,
    ok: idle && submissions.length > 0 && submissions.every((s) => s.status === "answered"),
    submissions,
    observed: observer.observed,
  };
}

async function call(peer: JsonRpcPeer, method: string, params: unknown, ms: number): Promise<unknown> {
  const result = await timeout(peer.request(method, params).result, ms);
  if (result === PROMPT_TIMEOUT) throw new Error(`${method} timed out`);
  return result;
}

/** How `startSession` treats a refused resume. */
export interface SessionPolicy {
  /**
   * When `session/resume` is refused with -32002 (session not found), create a new session instead
   * of failing if the session was never prompted: `unprompted`, no prompt was ever sent in it;
   * `unanswered`, no prompt sent in it was ever answered with a messageId (an insert elsewhere
   * would still show in a trace as a second insert of its key). Default: never (the user named it).
   */
  readonly newSessionIfRefused?: "unprompted" | "unanswered";
}

/**
 * `initialize`, then `session/new` the first time and `session/resume` on every reconnect (with
 * `newSessionIfRefused`, `session/new` again when the resume of a session never prompted is refused).
 */
export async function startSession(
  peer: JsonRpcPeer,
  tracker: ClientSubmissionTracker,
  cwd: string,
  ms: number,
  conn: number,
  log: (line: string) => void,
  misbehave?: Misbehaviour,
  policy: SessionPolicy = {},
): Promise<void> {
  await call(
    peer,
    "initialize",
    { protocolVersion: 2, info: { name: "acp-retry-inspector-demo-client", version: "1" }, capabilities: {} },
    ms,
  );
  let resumed = false;
  if (tracker.sessionId) {
    if (misbehave === "no-resume" && conn > 1) return;
    try {
      await call(peer, "session/resume", { sessionId: tracker.sessionId, cwd, mcpServers: [] }, ms);
      resumed = true;
      log(`[conn ${conn}] resumed session ${tracker.sessionId}`);
    } catch (err) {
      // A session never prompted holds nothing to keep: an agent may rightly forget it (-32002).
      const neverPrompted =
        policy.newSessionIfRefused === "unprompted"
          ? tracker.all().every((s) => s.attempts.length === 0)
          : policy.newSessionIfRefused === "unanswered" &&
            tracker.all().every((s) => s.messageIds.length === 0);
      if (!(err instanceof RpcError && err.code === -32002 && neverPrompted)) throw err;
      log(
        `[conn ${conn}] session ${tracker.sessionId} not found (${err.message}); it was never prompted: creating a new one`,
      );
    }
  }
  if (!resumed) {
    let answer: unknown;
    try {
      // `mcpServers` is required by v1 agents (claude-agent-acp rejects a session/new without it).
      answer = await call(peer, "session/new", { cwd, mcpServers: [] }, ms);
    } catch (err) {
      if (err instanceof RpcError) throw err;
      throw new SessionNewLost(
        `session/new got no answer (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    const { sessionId } = answer as { sessionId: string };
    await tracker.setSessionId(sessionId);
    log(`[conn ${conn}] created session ${sessionId}`);
  }
}

/** Sends attempts for one submission on one connection until it settles or the connection drops. */
export async function deliver(
  submission: TrackedSubmission,
  peer: JsonRpcPeer,
  tracker: ClientSubmissionTracker,
  conn: number,
  ms: number,
  maxAttempts: number,
  log: (line: string) => void,
  misbehave?: Misbehaviour,
): Promise<"settled" | "disconnected" | "lost"> {
  while (submission.status === "pending") {
    if (submission.attempts.length >= maxAttempts) {
      await tracker.giveUp(submission, `no answer after ${maxAttempts} attempts`);
      break;
    }
    // `new-key-on-retry`: the bug the RFD exists to prevent, a resend the agent cannot recognise.
    const key =
      misbehave === "new-key-on-retry" && submission.key !== null && submission.attempts.length > 0
        ? randomUuid()
        : submission.key;
    const params = {
      sessionId: tracker.sessionId,
      prompt: submission.prompt,
      ...(key !== null ? { idempotencyKey: key } : {}),
    };
    const sent = peer.request("session/prompt", params);
    const attempt = tracker.attemptSent(submission, conn, sent.id);
    log(`[conn ${conn}] #${submission.index} attempt ${attempt.n} sent as request ${sent.id}`);
    let result: unknown;
    try {
      result = await timeout(sent.result, ms);
    } catch (err) {
      if (err instanceof ConnectionClosedError) {
        await tracker.attemptSettled(submission, attempt, { kind: "disconnected", reason: err.message });
        return misbehave === "no-retry" ? "lost" : "disconnected";
      }
      const { code, message } = err instanceof RpcError ? err : { code: -32603, message: String(err) };
      await tracker.attemptSettled(submission, attempt, { kind: "error", code, message });
      log(`[conn ${conn}] #${submission.index} attempt ${attempt.n} failed with ${code} ${message}`);
      continue;
    }
    if (result === PROMPT_TIMEOUT) {
      await tracker.attemptSettled(submission, attempt, { kind: "timeout" });
      if (misbehave === "no-retry") return "lost";
      log(`[conn ${conn}] #${submission.index} attempt ${attempt.n} timed out: resending with the same key`);
      sent.result.then(
        (late) => tracker.attemptAnsweredLate(submission, attempt, messageIdOf(late)),
        () => undefined,
      );
      continue;
    }
    const messageId = messageIdOf(result);
    await tracker.attemptSettled(submission, attempt, { kind: "answered", messageId });
    log(
      `[conn ${conn}] #${submission.index} answered: ${messageId === null ? "no messageId (the agent sent none)" : `messageId ${messageId}`}`,
    );
  }
  return "settled";
}

/** The answer's messageId; null when it carries none (a v1 agent), never the text "undefined". */
function messageIdOf(result: unknown): string | null {
  const id = (result as { messageId?: unknown } | null)?.messageId;
  return typeof id === "string" ? id : null;
}

/** Asks for a fresh snapshot (`session/resume` of the active session) and waits until the session is idle. */
async function waitForIdle(
  peer: JsonRpcPeer,
  tracker: ClientSubmissionTracker,
  cwd: string,
  observer: SessionObserver,
  ms: number,
): Promise<boolean> {
  const idle = observer.nextIdle();
  await call(peer, "session/resume", { sessionId: tracker.sessionId, cwd, mcpServers: [] }, ms);
  if (observer.currentState === "idle") return true;
  const closed = peer.closed.then(() => false);
  const result = await timeout(Promise.race([idle.then(() => true), closed]), ms);
  return result === true;
}
