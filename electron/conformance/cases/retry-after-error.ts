/**
 * An error leaves the key unused: after an error answer to a keyed prompt in a session, the same key
 * is inserted once in that session, and recognised on a retry. The error is provoked in the same
 * session (an empty `prompt`, invalid params): an error from another session proves nothing about
 * this one. When the agent accepts the empty prompt, or does not recognise the retry at all (it
 * ignores keys), the insert after the error proves nothing either: not applicable, with the reason.
 */

import { check } from "../case-outcome.js";
import { describeAnswer } from "../suite-client.js";
import type { ConformanceCase } from "./conformance-case.js";

const KEY_UNUSED = "idem.error.key-unused";

/** `retry-after-error`. */
export const retryAfterError: ConformanceCase = {
  name: "retry-after-error",
  async run(ctx) {
    const client = await ctx.connect();
    const sessionId = await client.newSession(ctx.cwd);
    let key = ctx.newKey();
    const text = ctx.text("sent after an error under the same key");
    const invalid = client.promptContent(sessionId, [], key);
    const failed = await client.answerOf(invalid, "the empty prompt");
    const errored = failed.kind === "error";
    if (!errored) {
      ctx.notApplicable(
        KEY_UNUSED,
        `not applicable: an empty prompt in the session was answered with ${describeAnswer(failed)}, not an error, so no error could be provoked in the same session`,
      );
      // That key may now be used: the retry check below goes on with a fresh one.
      key = ctx.newKey();
    }
    const again = client.prompt(sessionId, text, key);
    const first = await client.inserted(
      again,
      errored ? `the same key after error ${failed.code}` : "the prompt with a fresh key",
    );
    await client.waitUserMessage(sessionId, first, "the prompt after the error");
    const retry = client.prompt(sessionId, text, key);
    const retried = await client.inserted(retry, "the retry");
    if (retried !== first && errored)
      ctx.notApplicable(
        KEY_UNUSED,
        `not applicable: the agent does not recognise keys in this session (the retry got ${retried}, not ${first}), so an insert after the error proves nothing`,
      );
    check(retried === first, `the retry got messageId ${retried}, not ${first}`, {
      requirement: "idem.retry.original-message-id",
      frames: [client.frame(again), client.frame(retry)],
    });
    ctx.confirm("idem.retry.original-message-id", `the retry got ${first}`);
    if (errored)
      ctx.confirm(
        KEY_UNUSED,
        `after error ${failed.code} in the same session the key was inserted as ${first}, and its retry recognised`,
      );
    await ctx.confirmInserts(client, sessionId, [first]);
    return errored
      ? `error ${failed.code} in the same session left the key unused: inserted once as ${first}, then recognised on the retry`
      : `the retry got the original messageId ${first} (no error could be provoked in the session: key-unused not applicable)`;
  },
};
