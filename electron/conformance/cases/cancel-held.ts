/** `$/cancel_request` for one of two pending attempts of a held prompt answers both with -32800; nothing is inserted. */

import { CaseFailure, check, skip } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";
import { startBusyTurn, wasHeld } from "./held-turn.js";

/** `cancel-held`. */
export const cancelHeld: ConformanceCase = {
  name: "cancel-held",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    const turn = await startBusyTurn(ctx, client, sessionId);
    const key = ctx.newKey();
    const text = ctx.text("a held prompt that gets withdrawn");
    const original = client.prompt(sessionId, text, key);
    const retry = client.prompt(sessionId, text, key);
    client.cancelRequest(retry.id);
    const [a, b] = await Promise.all([
      client.answerOf(original, "the held prompt"),
      client.answerOf(retry, "the cancelled retry"),
    ]);
    const cancelled = (x: typeof a) => x.kind === "error" && x.code === -32800;
    const frames = [client.frame(original), client.frame(retry)];
    if (cancelled(a) && cancelled(b)) {
      ctx.confirm("idem.cancel.withdraws-all", "both pending attempts got -32800");
      await ctx.confirmInserts(client, sessionId, [turn.messageId]);
      return "both pending attempts were answered with -32800 and nothing was inserted";
    }
    if (a.kind === "inserted" && b.kind === "inserted" && a.messageId === b.messageId) {
      if (!wasHeld(client, sessionId, turn, original))
        skip(
          "not applicable: the agent inserted the prompt before $/cancel_request arrived (it did not hold it)",
        );
      throw new CaseFailure(
        `the held prompt was inserted (messageId ${a.messageId}) after $/cancel_request for its retry`,
        { frames },
      );
    }
    check(
      false,
      `$/cancel_request for the retry: the original got ${describeAnswer(a)}, the retry ${describeAnswer(b)}; expected -32800 for both`,
      { frames },
    );
    return "";
  },
};
