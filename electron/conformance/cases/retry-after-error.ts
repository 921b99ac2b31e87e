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
    const failed = await client.answerOf(
      client.prompt(missing, text, key),
      "the prompt to an unknown session",
    );
    check(
      failed.kind === "error",
      `a prompt to an unknown session was answered with ${describeAnswer(failed)}, expected an error`,
    );
    const first = await client.inserted(client.prompt(sessionId, text, key), "the same key after the error");
    await client.waitUserMessage(sessionId, first, "the same key after the error");
    const retried = await client.inserted(client.prompt(sessionId, text, key), "the retry");
    check(retried === first, `the retry got messageId ${retried}, not ${first}`);
    await ctx.confirmInserts(client, sessionId, [first]);
    return `error ${failed.code} left the key unused: inserted once as ${first}, then recognised on the retry`;
  },
};
