/**
 * Shares the hub's event loop between tap ingest and everything else. Every tap keeps a few batches
 * in flight, so all of them can be readable at once; handled in one event-loop turn, they starve
 * what libuv runs once per turn: the timer that flushes UI batches, the write callbacks that send
 * acks, and the UI sockets' drain (a UI then falls out of the ring although it reads fast enough).
 * So each turn takes at most `bytesPerTurn` of tap messages; a tap whose message comes later is
 * paused and its messages are handled in a later turn, taps in the order they had to wait.
 */
export class IngestTurns {
  private spent = 0;
  private turnEnding = false;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly bytesPerTurn: number,
    private readonly nextTurn: (fn: () => void) => void = setImmediate,
  ) {}

  /**
   * A lane for one tap connection: the returned function takes its messages in order and calls
   * `handle` on each when the turn has room, else queues it and calls `pause` (the socket stops
   * reading) until the lane is empty again (`resume`). `drain()` handles everything queued at once
   * (the connection closed: its last messages come before it detaches).
   */
  lane<T extends { readonly length: number }>(
    handle: (message: T) => void,
    pause: () => void,
    resume: () => void,
  ): { take(message: T): void; drain(): void } {
    const queue: T[] = [];
    let waiting = false;
    const run = (message: T) => {
      this.spend(message.length);
      handle(message);
    };
    const next = () => {
      while (queue.length > 0 && this.spent < this.bytesPerTurn) run(queue.shift() as T);
      if (queue.length > 0) return this.wait(next);
      waiting = false;
      resume();
    };
    return {
      take: (message) => {
        if (queue.length === 0 && this.spent < this.bytesPerTurn) return run(message);
        queue.push(message);
        if (waiting) return;
        waiting = true;
        pause();
        this.wait(next);
      },
      drain: () => {
        while (queue.length > 0) run(queue.shift() as T);
      },
    };
  }

  private spend(bytes: number): void {
    this.spent += bytes;
    this.endTurnSoon();
  }

  private wait(fn: () => void): void {
    this.waiting.push(fn);
    this.endTurnSoon();
  }

  private endTurnSoon(): void {
    if (this.turnEnding) return;
    this.turnEnding = true;
    this.nextTurn(() => {
      this.turnEnding = false;
      this.spent = 0;
      const ready = this.waiting;
      this.waiting = [];
      for (const fn of ready) fn();
    });
  }
}
