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
    const inOne = await client.inserted(client.prompt(one, text, key), "the prompt in session 1");
    const inTwo = await client.inserted(client.prompt(two, text, key), "the prompt in session 2");
    await client.waitUserMessage(two, inTwo, "the prompt in session 2");
    const again1 = await client.inserted(client.prompt(one, text, key), "the retry in session 1");
    const again2 = await client.inserted(client.prompt(two, text, key), "the retry in session 2");
    check(again1 === inOne, `the retry in session 1 got ${again1}, not ${inOne}`);
    check(again2 === inTwo, `the retry in session 2 got ${again2}, not ${inTwo}`);
    await ctx.confirmInserts(client, one, [inOne]);
    await ctx.confirmInserts(client, two, [inTwo]);
    return `the key was inserted in each session (${inOne}, ${inTwo}) and each retry got its own session's messageId`;
  },
};
