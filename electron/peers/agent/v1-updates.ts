/**
 * v1 support: the demo agent speaks v1 for old Clients, without idempotency keys (the RFD does
 * not change v1). Its v2 session updates are translated to v1 shapes here.
 */

import type { SessionUpdate } from "./turn-script.js";

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
