/**
 * Malformed keys are rejected with -32602 and insert nothing; a 255-character key and `null` are
 * accepted. Every malformed key is tried, so the reason names each requirement that broke.
 */

import { blaming, check } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

const INVALID: ReadonlyArray<readonly [string, string, unknown]> = [
  ["idem.key-validation.empty", "an empty key", ""],
  ["idem.key-validation.too-long", "a 256-character key", "k".repeat(256)],
  ["idem.key-validation.number", "a number key", 42],
  ["idem.key-validation.object", "an object key", { key: "value" }],
];

/** `key-validation`. */
export const keyValidation: ConformanceCase = {
  name: "key-validation",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const accepted: string[] = [];
    for (const [requirement, label, key] of INVALID) {
      const attempt = client.prompt(sessionId, ctx.text(label), key);
      const answer = await client.answerOf(attempt, `the prompt with ${label}`);
      if (answer.kind === "error" && answer.code === -32602) {
        ctx.confirm(requirement, `${label} got -32602`);
      } else {
        if (answer.kind === "inserted") accepted.push(answer.messageId);
        ctx.breaks(
          requirement,
          `the prompt with ${label} was answered with ${describeAnswer(answer)}, expected error -32602`,
          [client.frame(attempt)],
        );
      }
    }
    const long = `${ctx.newKey()}-`.padEnd(255, "x");
    const withLong = client.prompt(sessionId, ctx.text("a 255-character key"), long);
    const withNull = client.prompt(sessionId, ctx.text("a null key"), null);
    const longId = await blaming(
      "idem.key-validation.max-length",
      client.inserted(withLong, "the prompt with a 255-character key"),
    );
    ctx.confirm("idem.key-validation.max-length", `inserted as ${longId}`);
    const nullId = await blaming(
      "idem.key-validation.null",
      client.inserted(withNull, "the prompt with a null key"),
    );
    check(longId !== nullId, `two different prompts were answered with the same messageId ${longId}`, {
      requirement: "idem.key-validation.null",
      frames: [client.frame(withLong), client.frame(withNull)],
    });
    ctx.confirm("idem.key-validation.null", `inserted as ${nullId}`);
    ctx.throwIfBroken();
    await ctx.confirmInserts(client, sessionId, [longId, nullId]);
    return "4 malformed keys got -32602 and inserted nothing; the 255-character and null keys were inserted once each";
  },
};
