/** A keyed prompt sent again on the same connection gets the original messageId; one message is inserted. */

import { check } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `retry-same-connection`. */
export const retrySameConnection: ConformanceCase = {
  name: "retry-same-connection",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("deploy the service");
    const first = client.prompt(sessionId, text, key);
    const original = await client.inserted(first, "the original prompt");
    const retry = client.prompt(sessionId, text, key);
    const retried = await client.inserted(retry, "the retry");
    check(retried === original, `the retry got messageId ${retried}, not the original ${original}`, {
      frames: [client.frame(first), client.frame(retry)],
    });
    ctx.confirm("idem.retry.original-message-id", `the retry got the original messageId ${original}`);
    await ctx.confirmInserts(client, sessionId, [original]);
    return `the retry got the original messageId ${original}; one user message`;
  },
};
