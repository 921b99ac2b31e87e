/** Malformed keys are rejected with -32602 and insert nothing; a 255-character key and `null` are accepted. */

import { check } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

const INVALID: ReadonlyArray<readonly [string, unknown]> = [
  ["an empty key", ""],
  ["a 256-character key", "k".repeat(256)],
  ["a number key", 42],
  ["an object key", { key: "value" }],
];

/** `key-validation`. */
export const keyValidation: ConformanceCase = {
  name: "key-validation",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    for (const [label, key] of INVALID) {
      const answer = await client.answerOf(
        client.prompt(sessionId, ctx.text(label), key),
        `the prompt with ${label}`,
      );
      check(
        answer.kind === "error" && answer.code === -32602,
        `the prompt with ${label} was answered with ${describeAnswer(answer)}, expected error -32602`,
      );
    }
    const long = `${ctx.newKey()}-`.padEnd(255, "x");
    const withLong = client.prompt(sessionId, ctx.text("a 255-character key"), long);
    const withNull = client.prompt(sessionId, ctx.text("a null key"), null);
    const longId = await client.inserted(withLong, "the prompt with a 255-character key");
    const nullId = await client.inserted(withNull, "the prompt with a null key");
    check(longId !== nullId, `two different prompts were answered with the same messageId ${longId}`);
    await ctx.confirmInserts(client, sessionId, [longId, nullId]);
    return "4 malformed keys got -32602 and inserted nothing; the 255-character and null keys were inserted once each";
  },
};
