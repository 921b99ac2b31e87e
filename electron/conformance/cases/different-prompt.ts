/** Informative: a recorded key sent with a different prompt is answered as a retry or rejected with -32602, never inserted again. */

import { CaseFailure, check } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `different-prompt`. */
export const differentPrompt: ConformanceCase = {
  name: "different-prompt",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("the first prompt for the key");
    const firstAttempt = client.prompt(sessionId, text, key);
    const original = await client.inserted(firstAttempt, "the first prompt");
    const otherAttempt = client.prompt(sessionId, ctx.text("a different prompt with the same key"), key);
    const other = await client.answerOf(otherAttempt, "the different prompt with the same key");
    const frames = [client.frame(firstAttempt), client.frame(otherAttempt)];
    let how: string;
    if (other.kind === "inserted") {
      check(
        other.messageId === original,
        `the different prompt was inserted again as ${other.messageId} (the key's message is ${original})`,
        { frames },
      );
      how = "answered as a retry with the original messageId";
    } else if (other.kind === "error" && other.code === -32602) {
      const again = await client.inserted(client.prompt(sessionId, text, key), "the first prompt sent again");
      check(
        again === original,
        `after the -32602 the key no longer named the first prompt: got ${again}, not ${original}`,
        { frames },
      );
      how = "rejected with -32602, and the key still names the first prompt";
    } else {
      throw new CaseFailure(
        `the different prompt was answered with ${describeAnswer(other)}, expected ${original} or -32602`,
        { frames },
      );
    }
    ctx.confirm("idem.reuse.different-prompt", how);
    await ctx.confirmInserts(client, sessionId, [original]);
    return `${how}; one insert`;
  },
};
