/** Turns a stored session into the `session/update`s of a `session/resume` replay. Keys never leave the store. */

import type { SessionRecord } from "./session-record.js";
import { deployUpdate, type SessionUpdate } from "./turn-script.js";
import { type UserMessageShape, userMessageUpdates } from "./user-message-shape.js";

/** The replay of `records` from the start, in stored order. */
export function replayUpdates(
  records: readonly SessionRecord[],
  shape: UserMessageShape = "message",
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const record of records) {
    switch (record.t) {
      case "user":
        // Only the message id and content: the stored key is the Agent's private record.
        updates.push(...userMessageUpdates(shape, record.messageId, record.content));
        break;
      case "effect":
        updates.push(deployUpdate(record.deploy));
        break;
      case "agent":
        updates.push({
          sessionUpdate: "agent_message",
          messageId: record.messageId,
          content: [{ type: "text", text: record.text }],
        });
        break;
      case "session":
        break;
    }
  }
  return updates;
}
