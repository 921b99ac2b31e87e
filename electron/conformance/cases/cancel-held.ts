/**
 * `$/cancel_request` for one of two pending attempts of a held prompt answers both with -32800;
 * nothing is inserted. The prompt is held behind the busy turn and one more queued prompt, so that
 * on a slow link (Streamable HTTP sends one POST after another) the cancel still arrives while it
 * is held; a `session/list` sent after the cancel shows whether it did. Without that evidence a
 * held prompt that was inserted is "not applicable", not a failure: the agent may have inserted it
 * before the cancel reached it, as it should.
 */

import { isUserMessageUpdate } from "../../../shared/protocol/user-message-updates.js";
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
    // Queued behind the busy turn: the held prompt waits for both turns, which leaves its cancel time.
    const queued = client.prompt(sessionId, ctx.text("a queued prompt, for more hold time"), ctx.newKey());
    const key = ctx.newKey();
    const text = ctx.text("a held prompt that gets withdrawn");
    const original = client.prompt(sessionId, text, key);
    const retry = client.prompt(sessionId, text, key);
    client.cancelRequest(retry.id);
    const reached = client.marker(
      "session/list",
      { cwd: ctx.cwd },
      "session/list (sent after the $/cancel_request)",
    );
    const [a, b, reachedOrder] = await Promise.all([
      client.answerOf(original, "the held prompt"),
      client.answerOf(retry, "the cancelled retry"),
      reached,
    ]);
    const queuedId = await client.inserted(queued, "the queued prompt");
    const cancelled = (x: typeof a) => x.kind === "error" && x.code === -32800;
    const frames = [client.frame(original), client.frame(retry)];
    if (cancelled(a) && cancelled(b)) {
      ctx.confirm("idem.cancel.withdraws-all", "both pending attempts got -32800");
      await ctx.confirmInserts(client, sessionId, [turn.messageId, queuedId]);
      return "both pending attempts were answered with -32800 and nothing was inserted";
    }
    if (a.kind === "inserted" && b.kind === "inserted" && a.messageId === b.messageId) {
      if (!wasHeld(client, sessionId, turn, original))
        skip(
          "not applicable: the agent inserted the prompt before $/cancel_request arrived (it did not hold it)",
        );
      // The insert as the client saw it: the held prompt's user message, else its answer.
      const insertedAt =
        client.updates.find(
          (u) =>
            u.sessionId === sessionId &&
            !u.replayed &&
            isUserMessageUpdate(u.update.sessionUpdate) &&
            u.update.messageId === a.messageId,
        )?.order ?? original.settledOrder;
      if (insertedAt === undefined || reachedOrder > insertedAt)
        skip(
          "not applicable: the session/list sent after $/cancel_request was answered only after the held prompt was inserted, so the cancel may have reached the agent after it had rightly inserted the prompt",
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
