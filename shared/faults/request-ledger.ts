import type { Frame, JsonRpcId } from "../protocol/frame.js";
import type { Direction } from "../trace/record.js";
import type { AnsweredRequest } from "./match-frame.js";

/**
 * Remembers the pending requests of one connection so a response can be matched by the request it
 * answers. Ids are per direction (both peers pick their own), so a response travelling
 * agent->client answers a request that travelled client->agent, and the reverse. Bounded: past
 * `limit` pending requests in one direction the oldest of them is forgotten.
 */
export class RequestLedger {
  /** Per direction the requests travelled, keyed by the id itself (a Map tells 1 from "1"). */
  private readonly fromClient = new Map<string | number, AnsweredRequest>();
  private readonly fromAgent = new Map<string | number, AnsweredRequest>();

  constructor(private readonly limit = 10_000) {}

  /** Feed every frame of the connection, in order; returns the request a response answers, if known. */
  observe(frame: Frame, dir: Direction): AnsweredRequest | undefined {
    if (frame.kind === "request") {
      const pending = dir === "client->agent" ? this.fromClient : this.fromAgent;
      pending.delete(frame.id);
      // The frame itself (its method and params): a frame classified by a scan parses its params only if asked.
      pending.set(frame.id, frame);
      if (pending.size > this.limit) {
        const oldest = pending.keys().next().value;
        if (oldest !== undefined) pending.delete(oldest);
      }
      return undefined;
    }
    if (frame.kind === "result" || frame.kind === "error") {
      if (frame.id === null) return undefined;
      const pending = dir === "agent->client" ? this.fromClient : this.fromAgent;
      const found = pending.get(frame.id);
      if (found !== undefined) pending.delete(frame.id);
      return found;
    }
    return undefined;
  }

  /** Looks up the request a response answers without forgetting it. */
  peek(responseDir: Direction, id: JsonRpcId): AnsweredRequest | undefined {
    if (id === null) return undefined;
    return (responseDir === "agent->client" ? this.fromClient : this.fromAgent).get(id);
  }

  /** Number of requests still waiting for an answer. */
  get size(): number {
    return this.fromClient.size + this.fromAgent.size;
  }
}
