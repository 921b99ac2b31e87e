/**
 * Every choice this project makes where the RFD (or PROTOCOL-NOTES) is silent, in one place so it
 * is easy to change when the final RFD text is published. `docs/analyzer.md` lists them with reasons.
 */

/** Keys shorter than this are never searched for in Agent frames: short strings collide with ordinary values. */
export const KEY_LEAK_MIN_LENGTH = 8;

/**
 * Keys at least this long also count as leaked when they appear inside a longer string value
 * (e.g. in agent text); shorter keys (from KEY_LEAK_MIN_LENGTH) leak only as a whole string value.
 * Must stay >= 2 * KEY_LEAK_WINDOW - 1 for the windowed search to find every occurrence.
 */
export const KEY_LEAK_SUBSTRING_MIN_LENGTH = 16;

/** Width of the aligned windows the substring leak search hashes. */
export const KEY_LEAK_WINDOW = 8;

/** How many characters of prompt text a submission keeps as its preview. */
export const PROMPT_PREVIEW_CHARS = 120;

/** How many characters of a malformed frame a timeline row keeps. */
export const MALFORMED_PREVIEW_CHARS = 200;

/**
 * A malformed key answered with `-32800` (the prompt was held, then cancelled) counts as accepted:
 * the Agent had to reject it with -32602 before holding it.
 */
export const CANCELLED_INVALID_KEY_IS_ACCEPTED = true;

/**
 * An `agent-exit` loses the pending requests of every connection open at that moment: the tap runs
 * one Agent process at a time and it serves every connection.
 */
export const AGENT_EXIT_LOSES_ALL_OPEN_CONNECTIONS = true;

/**
 * A `user_message` / `user_message_chunk` whose messageId no response has claimed is attributed to
 * the oldest pending `session/prompt` attempt of that session (Agents insert held prompts in order).
 * A response that later names the messageId overrides the attribution.
 */
export const ATTRIBUTE_UNCLAIMED_USER_MESSAGES_TO_OLDEST_PENDING = true;

/*
 * Not switchable, documented here: `unkeyed-resend` compares an unkeyed prompt with the most recent
 * earlier unkeyed prompt of the same session with identical `prompt` content (key order ignored), with
 * no time window; `duplicating-resend` does the same for `session/new` / `session/fork` params.
 * `cancel-not-propagated` compares only definite answers: an attempt still pending at the end of the
 * trace, or lost with its connection, is not evidence either way.
 * `unresolved` fires only once no attempt is pending: a pending prompt may still be answered.
 */
