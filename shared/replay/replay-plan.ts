/**
 * What `replay` sends, from a recorded trace (ours or an import): the client->agent frames the
 * client itself sent, in order, with what each must wait for, the recorded sessions to map, and the
 * client's recorded answers to the agent's own requests. Pure: records in, plan out.
 */
import { classifyFrame, type Frame } from "../protocol/frame.js";
import type { FrameRecord, TraceRecord } from "../trace/record.js";

/** A JSON-RPC id on a recorded connection: `conn` and the id as JSON text (`1` and `"1"` differ). */
export type ConnId = string;

/** `ConnId` of a connection and id. */
export function connId(conn: number, id: string | number | null): ConnId {
  return `${conn}:${JSON.stringify(id)}`;
}

/** One frame the replay sends. */
export interface ReplayStep {
  /** The source record's seq. */
  readonly seq: number;
  readonly conn: number;
  /** The source record's time (ms). */
  readonly ts: number;
  /** The recorded text, sent as is unless a session id or id has to be mapped. */
  readonly raw: string;
  /** The classified frame (`malformed` is sent as is: the agent sees what it saw). */
  readonly frame: Frame;
  /** Requests (as `ConnId`) whose answers the client had seen before it sent this frame. */
  readonly waitFor: readonly ConnId[];
}

/** The client's recorded answer to a request the agent made. */
export interface RecordedAnswer {
  /** `result` or `error`, as recorded. */
  readonly body: { readonly result: unknown } | { readonly error: unknown };
  /** The agent's recorded request params (matched against the new request's). */
  readonly params: unknown;
}

/** Everything `replay` needs from the source trace. */
export interface ReplayPlan {
  readonly steps: readonly ReplayStep[];
  /** Requests (as `ConnId`) whose answer carries a sessionId to map: session/new, session/fork. */
  readonly sessionMakers: ReadonlyMap<ConnId, string>;
  /** Recorded client answers to agent requests, per method, in order. */
  readonly answers: ReadonlyMap<string, readonly RecordedAnswer[]>;
  /** How many connections the client side used. */
  readonly connections: number;
  /** Every client request whose answer the recorded client saw (the replay waits for these before it closes). */
  readonly seenAnswered: ReadonlySet<ConnId>;
  /** Seqs of client frames not sent: not UTF-8 text, or longer than the trace holds (`oversize`). */
  readonly unsent: readonly number[];
}

/** The methods whose answer names a new session the later frames use. */
const SESSION_MAKERS = new Set(["session/new", "session/fork", "session/create"]);

const isClientOwn = (r: FrameRecord) => r.dir === "client->agent" && r.origin === undefined;
/** What the client received: the peers' own frames not dropped, and the inspector's rewritten answers. */
const clientSaw = (r: FrameRecord) =>
  r.dir === "agent->client" &&
  r.dropped !== true &&
  (r.origin === undefined || (r.origin === "inspector" && r.replaces !== undefined));

/** Builds the plan of a trace's records (in seq order). */
export function planReplay(records: readonly TraceRecord[]): ReplayPlan {
  const steps: ReplayStep[] = [];
  const sessionMakers = new Map<ConnId, string>();
  const answers = new Map<string, RecordedAnswer[]>();
  const conns = new Set<number>();
  const unsent: number[] = [];
  const seenAnswered = new Set<ConnId>();
  /** Client requests sent and not yet seen answered, by ConnId: their method. */
  const pending = new Map<ConnId, string>();
  /** Answered since the last client frame: the next client frame waits for them. */
  let answered: ConnId[] = [];
  /** Agent requests, by ConnId (agent's id): method and params. */
  const agentAsked = new Map<ConnId, { method: string; params: unknown }>();
  const makers = new Map<ConnId, true>();
  for (const r of records) {
    if (r.type !== "frame") continue;
    if (r.encoding === "base64" || r.flags?.includes("oversize")) {
      // Bytes the trace does not hold whole (or as text): named, not sent.
      if (isClientOwn(r)) unsent.push(r.seq);
      continue;
    }
    const frame = classifyFrame(r.raw);
    if (isClientOwn(r)) {
      conns.add(r.conn);
      if (frame.kind === "result" || frame.kind === "error") {
        // The client's answer to an agent request: kept for the replay to give again, not sent in order.
        const asked = agentAsked.get(connId(r.conn, frame.id));
        if (asked) {
          const list = answers.get(asked.method) ?? [];
          list.push({
            body: frame.kind === "result" ? { result: frame.result } : { error: frame.error },
            params: asked.params,
          });
          answers.set(asked.method, list);
        }
        continue;
      }
      steps.push({ seq: r.seq, conn: r.conn, ts: r.ts, raw: r.raw, frame, waitFor: answered });
      answered = [];
      if (frame.kind === "request") {
        const key = connId(r.conn, frame.id);
        pending.set(key, frame.method);
        if (SESSION_MAKERS.has(frame.method)) makers.set(key, true);
      }
      continue;
    }
    if (r.dir !== "agent->client") continue;
    if (frame.kind === "request" && r.origin === undefined) {
      agentAsked.set(connId(r.conn, frame.id), { method: frame.method, params: frame.params });
      continue;
    }
    if (frame.kind !== "result" && frame.kind !== "error") continue;
    const key = connId(r.conn, frame.id);
    // A session maker's answer names the recorded session, whether or not the client saw it.
    if (makers.has(key) && frame.kind === "result" && r.origin !== "tap") {
      const sid = (frame.result as { sessionId?: unknown } | null)?.sessionId;
      if (typeof sid === "string") sessionMakers.set(key, sid);
    }
    if (clientSaw(r) && pending.delete(key)) {
      answered.push(key);
      seenAnswered.add(key);
    }
  }
  return { steps, sessionMakers, answers, connections: conns.size, unsent, seenAnswered };
}
