/**
 * The client's side of a client-suite run as requests and their answers, read from the run's
 * (joined) trace: every request the client sent, with the agent's answer when one came and whether
 * the client saw it (a `dropped` answer never reached it). Frames the tap made itself are left out.
 * Pure.
 */

import type { FrameRecord, TraceRecord } from "../../trace/record.js";

/** A request the client sent, and what became of it. */
export interface Exchange {
  readonly conn: number;
  readonly id: number | string;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly seq: number;
  readonly ts: number;
  answer?: {
    readonly seq: number;
    /** The answer was swallowed by a fault: the client never saw it. */
    readonly dropped: boolean;
    readonly error?: { readonly code: unknown };
    readonly result?: unknown;
  };
}

/** A `session/prompt` exchange, with its key and prompt as sent. */
export interface PromptExchange extends Exchange {
  readonly sessionId: unknown;
  /** `undefined`: no `idempotencyKey` member; `null`: null (no key either); anything else as sent. */
  readonly key: unknown;
  /** The `prompt` member as JSON text, to compare prompts. */
  readonly text: string;
}

/** Every request the client sent in the run, in trace order. */
export interface ClientWire {
  readonly exchanges: readonly Exchange[];
  readonly prompts: readonly PromptExchange[];
  /** Frames by seq, for evidence. */
  readonly frames: ReadonlyMap<number, FrameRecord>;
}

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the exchange carries a key (a non-null `idempotencyKey`). */
export function keyed(p: PromptExchange): boolean {
  return p.key !== undefined && p.key !== null;
}

/** Whether the client saw a success answer to it. */
export function answeredOk(e: Exchange): boolean {
  return e.answer !== undefined && !e.answer.dropped && e.answer.error === undefined;
}

/** Whether no answer reached the client (dropped, or none came before the connection or agent was lost). */
export function lost(e: Exchange): boolean {
  return e.answer === undefined || e.answer.dropped;
}

/** Reads the client's requests and their answers from a run's records. */
export function readClientWire(records: Iterable<TraceRecord>): ClientWire {
  const exchanges: Exchange[] = [];
  const open = new Map<string, Exchange>();
  const frames = new Map<number, FrameRecord>();
  for (const r of records) {
    if (r.type !== "frame" || r.encoding === "base64" || r.origin !== undefined) continue;
    frames.set(r.seq, r);
    const msg = parse(r.raw);
    if (!msg) continue;
    const id = msg.id;
    if (typeof id !== "number" && typeof id !== "string") continue;
    if (r.dir === "client->agent" && typeof msg.method === "string") {
      const params =
        msg.params !== null && typeof msg.params === "object" && !Array.isArray(msg.params)
          ? (msg.params as Record<string, unknown>)
          : undefined;
      const base: Exchange = { conn: r.conn, id, method: msg.method, params, seq: r.seq, ts: r.ts };
      const exchange: Exchange =
        msg.method === "session/prompt"
          ? ({
              ...base,
              sessionId: params?.sessionId,
              key: params && "idempotencyKey" in params ? params.idempotencyKey : undefined,
              text: JSON.stringify(params?.prompt ?? null),
            } as PromptExchange)
          : base;
      exchanges.push(exchange);
      open.set(`${r.conn}:${typeof id}:${id}`, exchange);
    } else if (r.dir === "agent->client" && msg.method === undefined) {
      const k = `${r.conn}:${typeof id}:${id}`;
      const exchange = open.get(k);
      if (!exchange) continue;
      open.delete(k);
      const error = msg.error as { code?: unknown } | undefined;
      exchange.answer = {
        seq: r.seq,
        dropped: r.dropped === true,
        ...(error !== undefined ? { error: { code: error?.code } } : { result: msg.result }),
      };
    }
  }
  return {
    exchanges,
    prompts: exchanges.filter((e): e is PromptExchange => e.method === "session/prompt"),
    frames,
  };
}
