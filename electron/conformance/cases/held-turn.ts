/**
 * Shared steps of the cases that need a prompt held behind a running turn: start a turn, and
 * tell from the arrival order whether a later prompt was held until that turn ended.
 */

import type { CaseContext } from "../case-context.js";
import { skip } from "../case-outcome.js";
import type { PromptAttempt, SuiteClient } from "../suite-client.js";

/** A turn the suite started so that later prompts arrive while the agent is busy. */
export interface BusyTurn {
  readonly messageId: string;
  /** Arrival order when its answer came: updates after it belong to this turn or later. */
  readonly order: number;
}

/** Sends a first prompt and returns once it is inserted; skips the case if its turn already ended. */
export async function startBusyTurn(
  ctx: CaseContext,
  client: SuiteClient,
  sessionId: string,
): Promise<BusyTurn> {
  const before = client.order;
  const first = client.prompt(sessionId, ctx.text("a first prompt that keeps the agent busy"), ctx.newKey());
  const messageId = await client.inserted(first, "the first prompt");
  if (client.idleSince(sessionId, before)) {
    skip("not applicable: the agent finished the turn before the second prompt arrived");
  }
  return { messageId, order: client.order };
}

/** The arrival order of the first idle `state_update` after the busy turn started, if one came. */
export function turnEndOrder(client: SuiteClient, sessionId: string, turn: BusyTurn): number | undefined {
  return client.updates.find(
    (u) =>
      u.order > turn.order &&
      u.sessionId === sessionId &&
      u.update.sessionUpdate === "state_update" &&
      u.update.state === "idle",
  )?.order;
}

/**
 * Whether `attempt` was held: sent while the busy turn still ran (its idle had not arrived yet) and
 * answered only after the turn ended. On a slow link the turn can end before the prompt is even
 * sent; such a prompt was never held, and a case that needs one is then not applicable.
 */
export function wasHeld(
  client: SuiteClient,
  sessionId: string,
  turn: BusyTurn,
  attempt: PromptAttempt,
): boolean {
  const end = turnEndOrder(client, sessionId, turn);
  return (
    end !== undefined &&
    attempt.sentOrder < end &&
    attempt.settledOrder !== undefined &&
    attempt.settledOrder > end
  );
}
