/**
 * A keyed prompt sent again on a new connection, after `session/resume`, gets the original
 * messageId. Connection #1 is closed only once its turn ended (`state_update` idle, bounded), so an
 * agent that loses a session whose turn was cut short does not fail for a reason this rule is not about.
 */

import { check } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `retry-after-resume`. */
export const retryAfterResume: ConformanceCase = {
  name: "retry-after-resume",
  async run(ctx) {
    const first = await ctx.connect();
    const sessionId = await first.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("deploy the service");
    const before = first.order;
    const attempt = first.prompt(sessionId, text, key);
    const original = await first.inserted(attempt, "the original prompt");
    await ctx.settleTurn(first, sessionId, before);
    await ctx.closeAll();
    const second = await ctx.connect(ctx.dialer.transport !== "stdio");
    const resumed = second.order;
    await second.resume(sessionId, ctx.cwd);
    await ctx.settleResumedTurn(second, sessionId, resumed);
    const retry = second.prompt(sessionId, text, key);
    const retried = await second.inserted(retry, "the retry on connection #2");
    check(
      retried === original,
      `the retry after session/resume got messageId ${retried}, not the original ${original}`,
      { frames: [first.frame(attempt), second.frame(retry)] },
    );
    ctx.confirm("idem.retained.across-connections", `the retry on connection #2 got ${original}`);
    await ctx.confirmInserts(second, sessionId, []);
    return `the retry on connection #2 got the original messageId ${original}; nothing new inserted`;
  },
};
