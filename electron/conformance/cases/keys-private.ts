/** Keys never come back: not in updates, not in `session/list` results, not in replayed history. */

import { CaseTimeout, check } from "../case-outcome.js";
import type { SuiteClient } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

/** How long the case waits for the turn to end before it looks at the updates anyway. */
const TURN_END_CAP_MS = 10_000;

function leaks(client: SuiteClient, key: string): number {
  return client.received.filter((text) => text.includes(key)).length;
}

/** `keys-private`. */
export const keysPrivate: ConformanceCase = {
  name: "keys-private",
  async run(ctx) {
    const first = await ctx.connect();
    const sessionId = await first.newSession(ctx.cwd);
    const key = ctx.newKey();
    const before = first.order;
    const messageId = await first.inserted(
      first.prompt(sessionId, ctx.text("a keyed prompt"), key),
      "the prompt",
    );
    await first.waitUserMessage(sessionId, messageId, "the prompt");
    try {
      await first.until(() => first.idleSince(sessionId, before), "the end of the turn", TURN_END_CAP_MS);
    } catch (err) {
      // An agent that never reports idle is judged on what it sent so far.
      if (!(err instanceof CaseTimeout)) throw err;
    }
    check(
      leaks(first, key) === 0,
      `the key appeared in ${leaks(first, key)} message(s) from the agent on connection #1`,
    );
    const list = JSON.stringify(await first.call("session/list", { cwd: ctx.cwd }));
    check(!list.includes(key), "the key appeared in the session/list result");
    await ctx.closeAll();
    const second = await ctx.connect(ctx.dialer.transport !== "stdio");
    await second.resume(sessionId, ctx.cwd, true);
    const replayed = second.updates.filter((u) => u.replayed).length;
    check(
      leaks(second, key) === 0,
      `the key appeared in ${leaks(second, key)} replayed or live message(s) on connection #2`,
    );
    ctx.confirm("idem.keys.private", "the key appeared in no message from the agent");
    return `the key was absent from ${first.updates.length} live updates, the session/list result and ${replayed} replayed updates`;
  },
};
