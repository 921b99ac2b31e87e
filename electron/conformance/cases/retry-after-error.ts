/** An error leaves the key unused: the same key is then inserted once, and recognised on a retry. */

import { randomUUID } from "node:crypto";
import { check } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `retry-after-error`. */
export const retryAfterError: ConformanceCase = {
  name: "retry-after-error",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("sent to the wrong session first");
    const missing = `conformance-missing-session-${randomUUID()}`;
    const wrong = client.prompt(missing, text, key);
    const failed = await client.answerOf(wrong, "the prompt to an unknown session");
    check(
      failed.kind === "error",
      `a prompt to an unknown session was answered with ${describeAnswer(failed)}, expected an error`,
      { frames: [client.frame(wrong)] },
    );
    const again = client.prompt(sessionId, text, key);
    const first = await client.inserted(again, "the same key after the error");
    await client.waitUserMessage(sessionId, first, "the same key after the error");
    ctx.confirm("idem.error.key-unused", `the same key was inserted after error ${failed.code}`);
    const retry = client.prompt(sessionId, text, key);
    const retried = await client.inserted(retry, "the retry");
    check(retried === first, `the retry got messageId ${retried}, not ${first}`, {
      requirement: "idem.retry.original-message-id",
      frames: [client.frame(again), client.frame(retry)],
    });
    ctx.confirm("idem.retry.original-message-id", `the retry got ${first}`);
    await ctx.confirmInserts(client, sessionId, [first]);
    return `error ${failed.code} left the key unused: inserted once as ${first}, then recognised on the retry`;
  },
};
