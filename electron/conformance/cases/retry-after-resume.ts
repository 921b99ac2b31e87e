/** A keyed prompt sent again on a new connection, after `session/resume`, gets the original messageId. */

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
    const original = await first.inserted(first.prompt(sessionId, text, key), "the original prompt");
    await ctx.closeAll();
    const second = await ctx.connect(ctx.dialer.transport !== "stdio");
    await second.resume(sessionId, ctx.cwd);
    const retried = await second.inserted(second.prompt(sessionId, text, key), "the retry on connection #2");
    check(
      retried === original,
      `the retry after session/resume got messageId ${retried}, not the original ${original}`,
    );
    await ctx.confirmInserts(second, sessionId, []);
    return `the retry on connection #2 got the original messageId ${original}; nothing new inserted`;
  },
};
