import { type FaultMatch, UNKEYED_RETRY_WARNING } from "../../../shared/faults/fault-rule.js";
import type { Frame, JsonRpcId, RequestFrame } from "../../../shared/protocol/frame.js";
import { checkPromptParamsKey } from "../../../shared/protocol/idempotency-key.js";
import { asJsonObject } from "../../../shared/protocol/json-object.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FrameDecision } from "../frames/frame-policy.js";
import { withJsonRpcId } from "./frame-id.js";

/** The JSON-RPC id prefix of the requests an inspector retry sends (`acp-retry-inspector:retry:1`, ...). */
export const RETRY_ID_PREFIX = "acp-retry-inspector:retry:";

/** How many of the client's latest requests a `retry` can pick from. */
const RECENT = 64;
/** How many of the client's unanswered requests a `lose-and-retry` can resend (oldest forgotten first). */
const MAX_PENDING = 1_000;
/** At most this much request text is kept, for each of the two lists (oldest forgotten first). */
const MAX_KEPT_CHARS = 32 * 1024 * 1024;

/** A request the client sent, kept whole so the inspector can resend it byte for byte. */
export interface SeenRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: unknown;
  /** The exact text of the line, without its newline. */
  readonly text: string;
  /** Its frame record's seq, once recorded. */
  seq?: number;
}

/** A kept request; its `params` are read from the frame when asked for (a scanned frame parses then). */
class KeptRequest implements SeenRequest {
  readonly id: string | number;
  readonly method: string;
  seq?: number;

  constructor(
    private readonly frame: RequestFrame,
    readonly text: string,
  ) {
    this.id = frame.id;
    this.method = frame.method;
  }

  get params(): unknown {
    return this.frame.params;
  }
}

/** Where a resent request's answer goes. */
type AnswerGoes =
  /** Recorded and swallowed: the client never asked (`retry`). */
  | { readonly toClient: false }
  /** Forwarded to the client under the id of the request it copies (`lose-and-retry`, `restart-and-retry`). */
  | { readonly toClient: true; readonly clientId: string | number };

function param(params: unknown, name: string): unknown {
  return asJsonObject(params)?.[name];
}

/** Whether a client request fits a retry rule's match: its method, and sessionId and key when the rule names them. */
export function requestMatches(match: FaultMatch, req: { method: string; params: unknown }): boolean {
  if (match.method !== undefined && req.method !== match.method) return false;
  if (match.sessionId !== undefined && param(req.params, "sessionId") !== match.sessionId) return false;
  if (match.idempotencyKey !== undefined && param(req.params, "idempotencyKey") !== match.idempotencyKey)
    return false;
  return true;
}

/** True when `req` is a `session/prompt` without a valid idempotencyKey (a retry of it inserts again). */
export function isUnkeyedPrompt(req: SeenRequest): boolean {
  return req.method === "session/prompt" && checkPromptParamsKey(req.params).kind !== "valid";
}

/**
 * The retries the inspector makes on one client connection. It keeps the client's recent and
 * unanswered requests whole; `resend` writes a copy of one to the agent with only its id changed to
 * a tap-owned `RETRY_ID_PREFIX` id (recorded with `origin: "inspector"`, `replaces` the client's
 * id, `copyOf` its seq); `answer` decides the fate of the agent's answer to such a copy.
 */
export class InspectorRetries {
  private readonly recent: SeenRequest[] = [];
  /** Keyed by the id itself: a Map tells 1 from "1" (and 0 from -0 not, as `String` does not). */
  private readonly pending = new Map<string | number, SeenRequest>();
  private readonly awaiting = new Map<string, AnswerGoes>();
  private recentChars = 0;
  private pendingChars = 0;
  private sent = 0;

  constructor(
    private readonly conn: number,
    private readonly trace: TraceFanout,
  ) {}

  /**
   * Feed every request the client sends (with its text) and every answer the agent sends, in order.
   * Returns the kept request for a client request, so its seq can be filled in once recorded.
   */
  observe(frame: Frame, text: string | null, fromClient: boolean): SeenRequest | undefined {
    if (fromClient && frame.kind === "request" && text !== null) {
      const seen: SeenRequest = new KeptRequest(frame, text);
      this.recent.push(seen);
      this.recentChars += text.length;
      while (this.recent.length > RECENT || (this.recentChars > MAX_KEPT_CHARS && this.recent.length > 1))
        this.recentChars -= (this.recent.shift() as SeenRequest).text.length;
      const k = frame.id;
      this.forget(k);
      this.pending.set(k, seen);
      this.pendingChars += text.length;
      while (
        this.pending.size > MAX_PENDING ||
        (this.pendingChars > MAX_KEPT_CHARS && this.pending.size > 1)
      ) {
        const oldest = this.pending.keys().next().value;
        if (oldest === undefined) break;
        this.forget(oldest);
      }
      return seen;
    }
    if (!fromClient && (frame.kind === "result" || frame.kind === "error") && frame.id !== null)
      this.forget(frame.id);
    return undefined;
  }

  private forget(k: string | number): void {
    const r = this.pending.get(k);
    if (!r) return;
    this.pending.delete(k);
    this.pendingChars -= r.text.length;
  }

  /** The unanswered client request with this id (the one an agent answer answers), if still kept. */
  pendingRequest(id: JsonRpcId): SeenRequest | undefined {
    return id === null ? undefined : this.pending.get(id);
  }

  /**
   * The latest client request a `retry` rule picks: of `match.method` (`session/prompt` by
   * default), and of `match.sessionId` and `match.idempotencyKey` when the rule names them.
   */
  latest(match: FaultMatch): SeenRequest | undefined {
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const r = this.recent[i] as SeenRequest;
      if (requestMatches(match, r)) return r;
    }
    return undefined;
  }

  /**
   * Records and writes a copy of `req` with a tap-owned id; `toClient` forwards the agent's answer
   * to the client as the answer to `req`. Returns the id used, or null (with a note) when the
   * request's text has no top-level id to replace.
   */
  resend(req: SeenRequest, toClient: boolean, write: (bytes: Buffer) => void, why: string): string | null {
    const id = `${RETRY_ID_PREFIX}${++this.sent}`;
    const raw = withJsonRpcId(req.text, id);
    if (raw === null) {
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `${why}: cannot resend request ${JSON.stringify(req.id)}: its id could not be replaced in its text`,
      });
      return null;
    }
    if (isUnkeyedPrompt(req)) {
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `${why}: resending prompt ${JSON.stringify(req.id)} on connection #${this.conn}, which has no idempotencyKey: ${UNKEYED_RETRY_WARNING}`,
      });
    }
    this.awaiting.set(id, toClient ? { toClient, clientId: req.id } : { toClient });
    this.trace.emitFrame(this.conn, "client->agent", {
      raw,
      origin: "inspector",
      replaces: req.id,
      ...(req.seq !== undefined && { copyOf: req.seq }),
    });
    write(Buffer.from(`${raw}\n`));
    return id;
  }

  /** The fate of an agent frame that answers one of the inspector's copies, or undefined for any other frame. */
  answer(frame: Frame, text: string | null): FrameDecision | undefined {
    if ((frame.kind !== "result" && frame.kind !== "error") || typeof frame.id !== "string") return undefined;
    const goes = this.awaiting.get(frame.id);
    if (!goes) return undefined;
    this.awaiting.delete(frame.id);
    if (!goes.toClient || text === null) return { forward: false, mark: "inspector" };
    const raw = withJsonRpcId(text, goes.clientId);
    if (raw === null) return { forward: false, mark: "inspector" };
    return { forward: false, mark: "inspector", rewritten: { raw, replaces: frame.id } };
  }
}
