/**
 * The shared run of the cases that send a keyed prompt, break the first connection in some way,
 * resume the session on a second connection and send the same prompt with the same key: the retry
 * must get the original messageId and insert nothing new.
 */

import type { CaseName } from "../../../shared/conformance/conformance-result.js";
import type { CaseContext } from "../case-context.js";
import { check } from "../case-outcome.js";
import type { ConformanceCase } from "./conformance-case.js";

/** How one such case breaks the first connection, and the words it reports with. */
export interface NewConnectionRetry {
  /** The case's name. */
  readonly name: CaseName;
  /** Wait for the original prompt's user message before the turn settles (the restart case does). */
  readonly waitUserMessage: boolean;
  /** Ends the first connection once its turn settled; returns how, for the case's words (or ""). */
  readonly breakFirst: (ctx: CaseContext) => Promise<string>;
  /** The requirement the case confirms on success. */
  readonly requirement: string;
  /** Names the retry (for the wait's words), e.g. "the retry on connection #2". */
  readonly retryName: string;
  /** The failure sentence, given how the connection was broken, what the retry got and the original. */
  readonly failure: (how: string, retried: string, original: string) => string;
  /** The success summary, given how the connection was broken and the original messageId. */
  readonly summary: (how: string, original: string) => string;
}

/** A conformance case that retries a keyed prompt on a second connection after `breakFirst`. */
export function newConnectionRetryCase(spec: NewConnectionRetry): ConformanceCase {
  return {
    name: spec.name,
    async run(ctx) {
      const first = await ctx.connect();
      const sessionId = await first.newSession(ctx.cwd);
      const key = ctx.newKey();
      const text = ctx.text("deploy the service");
      const before = first.order;
      const attempt = first.prompt(sessionId, text, key);
      const original = await first.inserted(attempt, "the original prompt");
      if (spec.waitUserMessage) await first.waitUserMessage(sessionId, original, "the original prompt");
      await ctx.settleTurn(first, sessionId, before);
      const how = await spec.breakFirst(ctx);
      const second = await ctx.connect(ctx.dialer.transport !== "stdio");
      const resumed = second.order;
      await second.resume(sessionId, ctx.cwd);
      await ctx.settleResumedTurn(second, sessionId, resumed);
      const retry = second.prompt(sessionId, text, key);
      const retried = await second.inserted(retry, spec.retryName);
      check(retried === original, spec.failure(how, retried, original), {
        frames: [first.frame(attempt), second.frame(retry)],
      });
      ctx.confirm(spec.requirement, `${spec.retryName} got ${original}`);
      await ctx.confirmInserts(second, sessionId, []);
      return spec.summary(how, original);
    },
  };
}
