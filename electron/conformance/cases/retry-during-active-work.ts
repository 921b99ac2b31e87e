/** A prompt inserted while the agent was busy, retried while its own work runs, keeps its one message. */

import { check, skip } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";
import { startBusyTurn } from "./held-turn.js";

/** `retry-during-active-work`. */
export const retryDuringActiveWork: ConformanceCase = {
  name: "retry-during-active-work",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const turn = await startBusyTurn(ctx, client, sessionId);
    const key = ctx.newKey();
    const text = ctx.text("a prompt sent during active work");
    const sent = client.prompt(sessionId, text, key);
    const inserted = await client.inserted(sent, "the prompt sent during active work");
    if (client.idleSince(sessionId, sent.settledOrder ?? client.order))
      skip("not applicable: the agent finished the work before the retry could be sent");
    const retry = client.prompt(sessionId, text, key);
    const retried = await client.inserted(retry, "the retry during its work");
    check(retried === inserted, `the retry during active work got ${retried}, not ${inserted}`, {
      frames: [client.frame(sent), client.frame(retry)],
    });
    ctx.confirm("idem.retry.original-message-id", `the retry during active work got ${inserted}`);
    await ctx.confirmInserts(client, sessionId, [turn.messageId, inserted]);
    return `the retry during active work got the original messageId ${inserted}; one insert`;
  },
};
