/**
 * A keyed prompt sent again after the agent was killed and started again gets the original
 * messageId. The kill comes once the turn ended (bounded), so what is checked is the key's record,
 * not whether the agent survives a crash in the middle of a turn.
 */

import { newConnectionRetryCase } from "./retry-on-new-connection.js";

/** `retry-after-restart`. */
export const retryAfterRestart = newConnectionRetryCase({
  name: "retry-after-restart",
  waitUserMessage: true,
  breakFirst: (ctx) => ctx.restartAgent(),
  requirement: "idem.retained.across-restarts",
  retryName: "the retry after the restart",
  failure: (how, retried, original) =>
    `after the restart (${how}) the retry got messageId ${retried}, not the original ${original}`,
  summary: (how, original) => `${how}; the retry after session/resume got the original messageId ${original}`,
});
