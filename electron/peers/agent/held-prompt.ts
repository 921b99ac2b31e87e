/** Prompts that arrived while the agent was busy: held in order, inserted when it is free. */

import type { KeyOutcome } from "../../../shared/keys/agent-key-ledger.js";

/** A prompt accepted but not inserted yet. */
export interface HeldPrompt {
  /** The messageId it will be inserted as (derived from the key, or random). */
  readonly messageId: string;
  /** Its idempotency key, when the ledger tracks it. */
  readonly key?: string;
  readonly content: readonly unknown[];
  /** Answers the request that sent it: inserted (with the messageId) or withdrawn (with an error). */
  settle(outcome: KeyOutcome): void;
  /** Called with the stop reason when its turn ends (v1 answers then). */
  onTurnEnd?(stopReason: string): void;
}

/** A FIFO of held prompts that can give up prompts out of order (cancellation). */
export class HeldPromptQueue {
  private readonly items: HeldPrompt[] = [];

  /** Holds a prompt at the end of the line. */
  push(prompt: HeldPrompt): void {
    this.items.push(prompt);
  }

  /** The next prompt to insert, removed from the line. */
  shift(): HeldPrompt | undefined {
    return this.items.shift();
  }

  /** Removes and returns every held prompt `match` accepts. */
  take(match: (prompt: HeldPrompt) => boolean): HeldPrompt[] {
    const taken = this.items.filter(match);
    for (const prompt of taken) this.items.splice(this.items.indexOf(prompt), 1);
    return taken;
  }

  /** How many prompts are held. */
  get size(): number {
    return this.items.length;
  }
}
