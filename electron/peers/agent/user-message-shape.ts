/**
 * How the demo agent announces a user message: one `user_message` upsert (default), or only
 * `user_message_chunk`s, one per content block with the same messageId, as some real v2 agents do.
 * The schema allows both; `--user-messages chunks` lets tests check that both are judged alike.
 */

import type { SessionUpdate } from "./turn-script.js";

/** `message`: one `user_message`; `chunks`: one `user_message_chunk` per content block. */
export type UserMessageShape = "message" | "chunks";

/** Every shape, for argument parsing and help. */
export const USER_MESSAGE_SHAPES: readonly UserMessageShape[] = ["message", "chunks"];

/** The updates that announce the user message `messageId` with `content` (a prompt's content blocks). */
export function userMessageUpdates(
  shape: UserMessageShape,
  messageId: string,
  content: unknown,
): SessionUpdate[] {
  if (shape === "message") return [{ sessionUpdate: "user_message", messageId, content }];
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => ({ sessionUpdate: "user_message_chunk", messageId, content: block }));
}
