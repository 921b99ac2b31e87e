/**
 * v1 support: the demo agent speaks v1 for old Clients, without idempotency keys (the RFD does
 * not change v1). Its v2 session updates are translated to v1 shapes here.
 */

import type { SessionRecord } from "./session-record.js";
import { deployUpdate, type SessionUpdate } from "./turn-script.js";

/** The v1 form of a v2 session update, or `undefined` when v1 has no equivalent. */
export function toV1Update(update: SessionUpdate): Record<string, unknown> | undefined {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return { sessionUpdate: "agent_message_chunk", content: update.content };
    case "tool_call_update":
      return {
        sessionUpdate: "tool_call",
        toolCallId: update.toolCallId,
        title: update.title,
        kind: update.kind,
        status: update.status,
      };
    default:
      return undefined;
  }
}

/**
 * The v1 `session/load` replay of a stored session: the conversation as v1 streams it (a
 * `user_message_chunk` per prompt block, the agent's reply as one `agent_message_chunk`, each
 * deploy as its `tool_call`). No message ids and no keys: v1 has neither.
 */
export function v1ReplayUpdates(records: readonly SessionRecord[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const record of records) {
    switch (record.t) {
      case "user":
        for (const block of record.content) out.push({ sessionUpdate: "user_message_chunk", content: block });
        break;
      case "effect": {
        const update = toV1Update(deployUpdate(record.deploy));
        if (update) out.push(update);
        break;
      }
      case "agent":
        out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: record.text } });
        break;
      case "session":
        break;
    }
  }
  return out;
}
