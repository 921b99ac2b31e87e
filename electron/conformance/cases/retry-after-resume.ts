/**
 * A keyed prompt sent again on a new connection, after `session/resume`, gets the original
 * messageId. Connection #1 is closed only once its turn ended (`state_update` idle, bounded), so an
 * agent that loses a session whose turn was cut short does not fail for a reason this rule is not about.
 */

import { newConnectionRetryCase } from "./retry-on-new-connection.js";

/** `retry-after-resume`. */
export const retryAfterResume = newConnectionRetryCase({
  name: "retry-after-resume",
  waitUserMessage: false,
  breakFirst: async (ctx) => {
    await ctx.closeAll();
    return "";
  },
  requirement: "idem.retained.across-connections",
  retryName: "the retry on connection #2",
  failure: (_how, retried, original) =>
    `the retry after session/resume got messageId ${retried}, not the original ${original}`,
  summary: (_how, original) =>
    `the retry on connection #2 got the original messageId ${original}; nothing new inserted`,
});
