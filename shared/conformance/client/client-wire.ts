/**
 * The client's side of a client-suite run: every request the client sent, as sent (read from the
 * run's trace), with what the client got for it, as the analyzer's outcome model says
 * (`client-outcomes.ts`: an answer, a recorded loss, or nothing yet). Frames the tap made itself
 * are left out. Pure.
 */

import { asJsonObject, parseJsonObject } from "../../protocol/json-object.js";
import type { FrameRecord, TraceRecord } from "../../trace/record.js";
import { type ClientGot, ClientOutcomes, type ClientRunModel } from "./client-outcomes.js";

/** A request the client sent, and what became of it. */
export interface Exchange {
  readonly conn: number;
  readonly id: number | string;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly seq: number;
  readonly ts: number;
  /** What the client got for it, from the outcome model. */
  readonly got: ClientGot;
  /** The seqs of its frames (request, answer, and a forwarded inspector retry's), for evidence. */
  readonly frameSeqs: readonly number[];
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
  /** Frames by seq (the tap's own included: a forwarded answer), for evidence. */
  readonly frames: ReadonlyMap<number, FrameRecord>;
}

/** Whether the exchange carries a key (a non-null `idempotencyKey`). */
export function keyed(p: PromptExchange): boolean {
  return p.key !== undefined && p.key !== null;
}

/** Whether a success answer (its own, or one the inspector forwarded under its id) reached the client. */
export function answeredOk(e: Exchange): boolean {
  return e.got.kind === "answer" && e.got.ok;
}

/** Reads the client's requests from a run's records, each with what `model` (the analyzer's, on the same records) says it got. */
export function readClientWire(records: Iterable<TraceRecord>, model: ClientRunModel): ClientWire {
  const outcomes = new ClientOutcomes(model);
  const exchanges: Exchange[] = [];
  const frames = new Map<number, FrameRecord>();
  for (const r of records) {
    if (r.type !== "frame" || r.encoding === "base64") continue;
    frames.set(r.seq, r);
    if (r.origin !== undefined) continue;
    const msg = parseJsonObject(r.raw);
    if (!msg) continue;
    const id = msg.id;
    if (typeof id !== "number" && typeof id !== "string") continue;
    if (r.dir !== "client->agent" || typeof msg.method !== "string") continue;
    const params = asJsonObject(msg.params) ?? undefined;
    const view = outcomes.of(r.seq);
    const base: Exchange = {
      conn: r.conn,
      id,
      method: msg.method,
      params,
      seq: r.seq,
      ts: r.ts,
      got: view.got,
      frameSeqs: view.frameSeqs.length > 0 ? view.frameSeqs : [r.seq],
    };
    exchanges.push(
      msg.method === "session/prompt"
        ? ({
            ...base,
            sessionId: params?.sessionId,
            key: params && "idempotencyKey" in params ? params.idempotencyKey : undefined,
            text: JSON.stringify(params?.prompt ?? null),
          } as PromptExchange)
        : base,
    );
  }
  return {
    exchanges,
    prompts: exchanges.filter((e): e is PromptExchange => e.method === "session/prompt"),
    frames,
  };
}
