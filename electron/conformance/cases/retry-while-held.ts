/** A retry of a prompt that is held behind a running turn waits, and is answered with the original. */

import { check, skip } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";
import { startBusyTurn, wasHeld } from "./held-turn.js";

/** `retry-while-held`. */
export const retryWhileHeld: ConformanceCase = {
  name: "retry-while-held",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const turn = await startBusyTurn(ctx, client, sessionId);
    const key = ctx.newKey();
    const text = ctx.text("a second prompt sent during the turn");
    const original = client.prompt(sessionId, text, key);
    const retry = client.prompt(sessionId, text, key);
    const [a, b] = await Promise.all([
      client.answerOf(original, "the held prompt"),
      client.answerOf(retry, "the retry of the held prompt"),
    ]);
    const frames = [client.frame(original), client.frame(retry)];
    check(a.kind === "inserted", `the held prompt was answered with ${describeAnswer(a)}`, { frames });
    check(b.kind === "inserted", `the retry of the held prompt was answered with ${describeAnswer(b)}`, {
      frames,
    });
    check(
      a.messageId === b.messageId,
      `the held prompt got messageId ${a.messageId} and its retry ${b.messageId}: two inserts`,
      { requirement: "idem.insert.once", frames },
    );
    if (!wasHeld(client, sessionId, turn, original))
      skip(
        "not applicable: the agent inserted the second prompt while the first turn was running (it did not hold it)",
      );
    check(
      wasHeld(client, sessionId, turn, retry),
      "the retry was answered before the held prompt was inserted (it should wait for the original)",
      { frames },
    );
    ctx.confirm("idem.held.answered-with-original", `both answered with ${a.messageId} after the first turn`);
    await ctx.confirmInserts(client, sessionId, [turn.messageId, a.messageId]);
    return `the held prompt and its retry were both answered with ${a.messageId} after the first turn; one insert`;
  },
};
