/**
 * A bounded ring of hub events with a sequence number that only grows (from 1). When full, the
 * oldest event is evicted; a reader asking for "everything after seq N" learns whether events it
 * never saw were evicted.
 */
export class EventRing<T> {
  private readonly slots: (T | undefined)[];
  private nextSeq = 1;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("ring capacity must be >= 1");
    this.slots = new Array<T | undefined>(capacity);
  }

  /** Appends an event; returns its seq. Evicts the oldest when full. */
  push(event: T): number {
    const seq = this.nextSeq++;
    this.slots[seq % this.capacity] = event;
    if (this.count < this.capacity) this.count++;
    return seq;
  }

  /** The seq of the newest event, 0 when nothing was ever pushed. */
  get latestSeq(): number {
    return this.nextSeq - 1;
  }

  /** The seq of the oldest event still held (latestSeq + 1 when empty). */
  get oldestSeq(): number {
    return this.nextSeq - this.count;
  }

  /**
   * Events with seq > `after`, oldest first, at most `limit` of them. `missed` is true when some
   * events after `after` were already evicted (the reader then gets everything still held).
   */
  after(
    after: number,
    limit = Number.POSITIVE_INFINITY,
  ): { events: { seq: number; event: T }[]; missed: boolean } {
    const from = Math.max(after + 1, this.oldestSeq);
    const missed = after + 1 < this.oldestSeq;
    const to = Math.min(this.latestSeq, from + limit - 1);
    const events: { seq: number; event: T }[] = [];
    for (let s = from; s <= to; s++) events.push({ seq: s, event: this.slots[s % this.capacity] as T });
    return { events, missed };
  }
}
