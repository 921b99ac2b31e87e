/**
 * The time limit of one case: every wait in a case goes through it, so a hanging agent fails the
 * case instead of hanging the run. Starting a connection (the agent's spawn and its answer to
 * `initialize`) is set-up, not the rule: it has a bound of its own (`setup`) and the case's clock
 * stands still meanwhile, so a slow start on a loaded machine leaves the case its whole limit for
 * what its rule needs. The same for a turn the case cut short that the agent continues on the next
 * connection (`CaseContext.settleResumedTurn`).
 */

import { CaseTimeout } from "./case-outcome.js";

/**
 * The shortest bound of one set-up step of a case (a case's limit when that is longer), ms. The
 * probe has already seen the agent answer `initialize`, so a start that takes long is a loaded
 * machine, not a hung agent (one that dies ends the wait at once: its connection closes).
 */
export const SETUP_FLOOR_MS = 60_000;
/** The shortest bound of the probe's `initialize` (the run's limit when that is longer), ms: an agent that never answers stops the run after it. */
export const PROBE_SETUP_FLOOR_MS = 15_000;
/** How often a wait that reached the case's end while the clock stood still looks again, ms. */
const PAUSED_RECHECK_MS = 10;

/** A point in time after which every wait of the case fails with a `CaseTimeout` naming what it waited for. */
export class CaseDeadline {
  private endsAt: number;
  private pausedAt: number | undefined;
  private pauses = 0;
  /** Milliseconds the clock stood still for set-up (not counted against `limitMs`). */
  setupMs = 0;

  /** `linked`: another deadline (the case's safety net) whose clock stands still with this one's. */
  constructor(
    readonly limitMs: number,
    private readonly linked?: CaseDeadline,
  ) {
    this.endsAt = Date.now() + limitMs;
  }

  /** Milliseconds left (0 once expired); frozen while a set-up runs. */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - (this.pausedAt ?? Date.now()));
  }

  /** How long one set-up may take: the case's limit, at least `SETUP_FLOOR_MS`. */
  get setupLimitMs(): number {
    return Math.max(SETUP_FLOOR_MS, this.limitMs);
  }

  /**
   * Resolves with `promise`, or rejects with a `CaseTimeout` once the case's time is up (or after
   * `capMs`, when given). The message says how long this wait itself lasted, and when the case's
   * limit (not the wait's own cap) ended it. Time a set-up took meanwhile is not counted.
   */
  within<T>(promise: Promise<T>, what: string, capMs?: number): Promise<T> {
    const capped = capMs !== undefined && capMs < this.remainingMs;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      const arm = (ms: number) => {
        timer = setTimeout(() => {
          // The case's end moved (a set-up ran meanwhile) or stands still: not yet.
          if (!capped && (this.pausedAt !== undefined || this.remainingMs > 0)) {
            arm(Math.max(PAUSED_RECHECK_MS, this.remainingMs));
            return;
          }
          const waited = Date.now() - started;
          const why = capped ? "" : `, when the case's ${this.limitMs} ms limit ran out`;
          reject(new CaseTimeout(`timed out after ${waited} ms waiting for ${what}${why}`));
        }, ms);
      };
      arm(capped ? (capMs as number) : this.remainingMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * Waits for a set-up step (`promise`: a connection's start and its `initialize`, or a turn the
   * case cut short and the agent continues) with its own bound, `capMs` (default `setupLimitMs`);
   * the case's clock (and the linked one's) stands still until it settles.
   */
  async setup<T>(promise: Promise<T>, what: string, capMs?: number): Promise<T> {
    const limit = capMs ?? this.setupLimitMs;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CaseTimeout(
              `timed out after ${Date.now() - started} ms waiting for ${what} (set-up may take ${limit} ms besides the case's limit)`,
            ),
          ),
        limit,
      );
    });
    this.pause();
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
      this.resume();
    }
  }

  private pause(): void {
    if (this.pauses++ === 0) this.pausedAt = Date.now();
    this.linked?.pause();
  }

  private resume(): void {
    if (--this.pauses === 0 && this.pausedAt !== undefined) {
      const stood = Date.now() - this.pausedAt;
      this.endsAt += stood;
      this.setupMs += stood;
      this.pausedAt = undefined;
    }
    this.linked?.resume();
  }
}
