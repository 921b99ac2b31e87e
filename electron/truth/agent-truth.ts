/**
 * Ground truth on the agent's side, read from the reference agent's own store (docs/demo-peers.md,
 * "Store layout"), never from the trace: every user message it inserted into a session, with the
 * idempotency key stored in the same record.
 */

import { join } from "node:path";
import { readSessionFile } from "../peers/agent/session-file.js";

/** One user message the agent inserted. */
export interface StoredInsert {
  readonly messageId: string;
  /** The key stored with it; null for an unkeyed prompt. */
  readonly key: string | null;
}

/** What the agent's store holds for one session. */
export interface AgentTruth {
  readonly sessionId: string;
  /** False when the store has no file for the session (the agent never created it). */
  readonly found: boolean;
  /** Every insert, in store order. */
  readonly inserts: readonly StoredInsert[];
}

/** Reads session `sessionId` from the demo agent's store folder `storeDir`. */
export function readAgentTruth(storeDir: string, sessionId: string): AgentTruth {
  const file = readSessionFile(join(storeDir, "sessions", `${sessionId}.jsonl`));
  if (!file) return { sessionId, found: false, inserts: [] };
  const inserts: StoredInsert[] = [];
  for (const r of file.records)
    if (r.t === "user") inserts.push({ messageId: r.messageId, key: r.key ?? null });
  return { sessionId, found: true, inserts };
}

/** The messageIds the agent inserted under `key` (null: the unkeyed inserts). */
export function insertsOfKey(truth: AgentTruth, key: string | null): string[] {
  return truth.inserts.filter((i) => i.key === key).map((i) => i.messageId);
}
