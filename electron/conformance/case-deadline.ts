/** The time limit of one case: every wait in a case goes through it, so a hanging agent fails the case instead of hanging the run. */

import { CaseTimeout } from "./case-outcome.js";

/** A point in time after which every wait of the case fails with a `CaseTimeout` naming what it waited for. */
export class CaseDeadline {
  private readonly endsAt: number;

  constructor(readonly limitMs: number) {
    this.endsAt = Date.now() + limitMs;
  }

  /** Milliseconds left (0 once expired). */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /**
   * Resolves with `promise`, or rejects with a `CaseTimeout` once the case's time is up (or after
   * `capMs`, when given). The message says how long this wait itself lasted, and when the case's
   * limit (not the wait's own cap) ended it.
   */
  within<T>(promise: Promise<T>, what: string, capMs?: number): Promise<T> {
    const capped = capMs !== undefined && capMs < this.remainingMs;
    const ms = capped ? (capMs as number) : this.remainingMs;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waited = Date.now() - started;
        const why = capped ? "" : `, when the case's ${this.limitMs} ms limit ran out`;
        reject(new CaseTimeout(`timed out after ${waited} ms waiting for ${what}${why}`));
      }, ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }
}
