/**
 * The v2 `session/update` shapes that announce an inserted user message, with the messageId
 * `session/prompt` answered. Taken from the SDK's v2 schema (`SessionUpdate`): a whole
 * `user_message` upsert, or `user_message_chunk`s that carry the same messageId. The conformance
 * suite and the analyzer both count inserts through this one list, so they cannot disagree;
 * `user-message-updates.test.ts` fails when the schema adds or drops a user message shape.
 */

/** Every `sessionUpdate` value that announces (part of) a user message. */
export const USER_MESSAGE_UPDATES = ["user_message", "user_message_chunk"] as const;

/** One of `USER_MESSAGE_UPDATES`. */
export type UserMessageUpdateKind = (typeof USER_MESSAGE_UPDATES)[number];

/** Whether a `sessionUpdate` value announces a user message (and so carries its messageId). */
export function isUserMessageUpdate(kind: unknown): kind is UserMessageUpdateKind {
  return (USER_MESSAGE_UPDATES as readonly unknown[]).includes(kind);
}
