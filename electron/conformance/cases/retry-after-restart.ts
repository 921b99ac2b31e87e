/**
 * A keyed prompt sent again after the agent was killed and started again gets the original
 * messageId. The kill comes once the turn ended (bounded), so what is checked is the key's record,
 * not whether the agent survives a crash in the middle of a turn.
 */

import { check } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `retry-after-restart`. */
export const retryAfterRestart: ConformanceCase = {
  name: "retry-after-restart",
  async run(ctx) {
    const first = await ctx.connect();
    const sessionId = await first.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("deploy the service");
    const before = first.order;
    const attempt = first.prompt(sessionId, text, key);
    const original = await first.inserted(attempt, "the original prompt");
    await first.waitUserMessage(sessionId, original, "the original prompt");
    await ctx.settleTurn(first, sessionId, before);
    const how = await ctx.restartAgent();
    const second = await ctx.connect(ctx.dialer.transport !== "stdio");
    const resumed = second.order;
    await second.resume(sessionId, ctx.cwd);
    await ctx.settleResumedTurn(second, sessionId, resumed);
    const retry = second.prompt(sessionId, text, key);
    const retried = await second.inserted(retry, "the retry after the restart");
    check(
      retried === original,
      `after the restart (${how}) the retry got messageId ${retried}, not the original ${original}`,
      { frames: [first.frame(attempt), second.frame(retry)] },
    );
    ctx.confirm("idem.retained.across-restarts", `the retry after the restart got ${original}`);
    await ctx.confirmInserts(second, sessionId, []);
    return `${how}; the retry after session/resume got the original messageId ${original}`;
  },
};
