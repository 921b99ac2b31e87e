import type { Frame, JsonRpcId } from "../protocol/frame.js";
import type { Direction } from "../trace/record.js";
import type { AnsweredRequest } from "./match-frame.js";

/**
 * Remembers the pending requests of one connection so a response can be matched by the request it
 * answers. Ids are per direction (both peers pick their own), so a response travelling
 * agent->client answers a request that travelled client->agent, and the reverse. Bounded: past
 * `limit` pending requests the oldest is forgotten.
 */
export class RequestLedger {
  private readonly pending = new Map<string, AnsweredRequest>();

  constructor(private readonly limit = 10_000) {}

  /** Feed every frame of the connection, in order; returns the request a response answers, if known. */
  observe(frame: Frame, dir: Direction): AnsweredRequest | undefined {
    if (frame.kind === "request") {
      const k = this.keyOf(dir, frame.id);
      this.pending.delete(k);
      this.pending.set(k, { method: frame.method, params: frame.params });
      if (this.pending.size > this.limit) {
        const oldest = this.pending.keys().next().value;
        if (oldest !== undefined) this.pending.delete(oldest);
      }
      return undefined;
    }
    if (frame.kind === "result" || frame.kind === "error") {
      const requestDir: Direction = dir === "agent->client" ? "client->agent" : "agent->client";
      const k = this.keyOf(requestDir, frame.id);
      const found = this.pending.get(k);
      this.pending.delete(k);
      return found;
    }
    return undefined;
  }

  /** Looks up the request a response answers without forgetting it. */
  peek(responseDir: Direction, id: JsonRpcId): AnsweredRequest | undefined {
    const requestDir: Direction = responseDir === "agent->client" ? "client->agent" : "agent->client";
    return this.pending.get(this.keyOf(requestDir, id));
  }

  /** Number of requests still waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }

  private keyOf(dir: Direction, id: JsonRpcId): string {
    return `${dir}|${typeof id}|${String(id)}`;
  }
}
