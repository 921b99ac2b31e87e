/** A keyed prompt sent again after the agent was killed and started again gets the original messageId. */

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
    const original = await first.inserted(first.prompt(sessionId, text, key), "the original prompt");
    await first.waitUserMessage(sessionId, original, "the original prompt");
    const how = await ctx.restartAgent();
    const second = await ctx.connect(ctx.dialer.transport !== "stdio");
    await second.resume(sessionId, ctx.cwd);
    const retried = await second.inserted(second.prompt(sessionId, text, key), "the retry after the restart");
    check(
      retried === original,
      `after the restart (${how}) the retry got messageId ${retried}, not the original ${original}`,
    );
    await ctx.confirmInserts(second, sessionId, []);
    return `${how}; the retry after session/resume got the original messageId ${original}`;
  },
};
