/** The same key string in another session is a new submission; each session keeps its own. */

import { check } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";

/** `same-key-other-session`. */
export const sameKeyOtherSession: ConformanceCase = {
  name: "same-key-other-session",
  async run(ctx) {
    const client = await ctx.connect();
    const one = await client.newSession(ctx.cwd);
    const two = await client.newSession(ctx.cwd);
    const key = ctx.newKey();
    const text = ctx.text("the same text and key in two sessions");
    const p1 = client.prompt(one, text, key);
    const inOne = await client.inserted(p1, "the prompt in session 1");
    const p2 = client.prompt(two, text, key);
    const inTwo = await client.inserted(p2, "the prompt in session 2");
    check(inOne !== inTwo, `the prompt in session 2 got session 1's messageId ${inOne}`, {
      frames: [client.frame(p1), client.frame(p2)],
    });
    await client.waitUserMessage(two, inTwo, "the prompt in session 2");
    const r1 = client.prompt(one, text, key);
    const again1 = await client.inserted(r1, "the retry in session 1");
    const r2 = client.prompt(two, text, key);
    const again2 = await client.inserted(r2, "the retry in session 2");
    // A retry answered with the other session's messageId breaks the session scope; one answered
    // with a messageId of neither session was not recognised at all: the retry rule broke.
    const retryRule = (got: string, own: string, other: string) =>
      got !== own && got !== other ? { requirement: "idem.retry.original-message-id" } : {};
    check(again1 === inOne, `the retry in session 1 got ${again1}, not ${inOne}`, {
      ...retryRule(again1, inOne, inTwo),
      frames: [client.frame(p1), client.frame(r1)],
    });
    check(again2 === inTwo, `the retry in session 2 got ${again2}, not ${inTwo}`, {
      ...retryRule(again2, inTwo, inOne),
      frames: [client.frame(p2), client.frame(r2)],
    });
    ctx.confirm("idem.retry.original-message-id", `each retry got its own session's messageId`);
    ctx.confirm("idem.scope.session", `each session kept its own messageId (${inOne}, ${inTwo})`);
    await ctx.confirmInserts(client, one, [inOne]);
    await ctx.confirmInserts(client, two, [inTwo]);
    return `the key was inserted in each session (${inOne}, ${inTwo}) and each retry got its own session's messageId`;
  },
};
