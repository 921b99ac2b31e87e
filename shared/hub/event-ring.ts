/** How much an `EventRing` holds. */
export interface EventRingLimits {
  /** Most events held; the oldest are evicted first. */
  readonly maxEvents: number;
  /**
   * Most payload held, in the unit of the runs' offsets (bytes, when payloads are encoded text);
   * no bound on size when absent. Memory may exceed it by one run (a run's payload goes when its
   * last event does).
   */
  readonly maxBytes?: number;
}

/** Events pushed together: one payload, and where each event ends in it. */
interface Run<P> {
  /** Seq of the run's first event. */
  readonly first: number;
  readonly payload: P;
  /** `ends[i]`: offset just after event `first + i`; the next one starts one unit (a separator) later. */
  readonly ends: readonly number[];
}

/** Some consecutive events of one run: `payload` from offset `start` to `end`. */
export interface RingSegment<P> {
  readonly payload: P;
  /** Seq of the segment's first event. */
  readonly first: number;
  /** Number of events in the segment. */
  readonly count: number;
  readonly start: number;
  readonly end: number;
}

/** A range of events read from the ring. */
export interface RingSlice<P> {
  /** The range, oldest first, one segment per run it touches. */
  readonly segments: readonly RingSegment<P>[];
  /** Number of events in the range (0 when there are none after the reader's seq). */
  readonly count: number;
  /** Seq of the last event in the range (the reader's new cursor). */
  readonly lastSeq: number;
  /** True when some events after the reader's seq were already evicted. */
  readonly missed: boolean;
}

/**
 * A bounded ring of hub events with a sequence number that only grows (from 1). Events pushed
 * together (one tap batch) are one run: one payload (the hub's: encoded text, kept outside the JS
 * heap) with each event's end offset, so the ring holds a few large payloads rather than an object
 * per event, and a range comes back as one segment per run. When full, the oldest events are
 * evicted; a reader asking for "everything after seq N" learns whether events it never saw were
 * evicted.
 */
export class EventRing<P> {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private runs: (Run<P> | undefined)[] = [];
  /** Index of the oldest run still (partly) held. */
  private head = 0;
  private nextSeq = 1;
  private count = 0;
  private bytes = 0;

  constructor(limits: number | EventRingLimits) {
    const { maxEvents, maxBytes = Number.POSITIVE_INFINITY } =
      typeof limits === "number" ? { maxEvents: limits } : limits;
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new RangeError("ring capacity must be >= 1");
    if (!(maxBytes > 0)) throw new RangeError("ring size bound must be > 0");
    this.maxEvents = maxEvents;
    this.maxBytes = maxBytes;
  }

  /**
   * Appends a run of `ends.length` events held in `payload`, event `i` ending at `ends[i]`;
   * returns the seq of the first.
   */
  push(payload: P, ends: readonly number[]): number {
    const first = this.nextSeq;
    if (ends.length === 0) return first;
    this.runs.push({ first, payload, ends });
    this.nextSeq += ends.length;
    this.count += ends.length;
    this.bytes += ends[ends.length - 1] as number;
    this.evict();
    return first;
  }

  /** The seq of the newest event, 0 when nothing was ever pushed. */
  get latestSeq(): number {
    return this.nextSeq - 1;
  }

  /** The seq of the oldest event still held (latestSeq + 1 when empty). */
  get oldestSeq(): number {
    return this.nextSeq - this.count;
  }

  /** Number of events held. */
  get size(): number {
    return this.count;
  }

  /** Payload held, separators between events of a run included. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Events with seq > `after`, oldest first, at most `limit` of them. */
  after(after: number, limit = Number.POSITIVE_INFINITY): RingSlice<P> {
    const from = Math.max(after + 1, this.oldestSeq);
    const missed = after + 1 < this.oldestSeq;
    const to = Math.min(this.latestSeq, from + limit - 1);
    if (to < from) return { segments: [], count: 0, lastSeq: from - 1, missed };
    const segments: RingSegment<P>[] = [];
    for (let r = this.runAt(from), seq = from; seq <= to; r++) {
      const run = this.runs[r] as Run<P>;
      const last = Math.min(to, run.first + run.ends.length - 1);
      segments.push({
        payload: run.payload,
        first: seq,
        count: last - seq + 1,
        start: startOf(run, seq - run.first),
        end: run.ends[last - run.first] as number,
      });
      seq = last + 1;
    }
    return { segments, count: to - from + 1, lastSeq: to, missed };
  }

  /** Index of the run holding `seq` (which must be held). */
  private runAt(seq: number): number {
    let lo = this.head;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.runs[mid] as Run<P>).first <= seq) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Evicts the oldest events until both bounds hold; drops each run left with no event. */
  private evict(): void {
    while (this.count > this.maxEvents || this.bytes > this.maxBytes) {
      const run = this.runs[this.head] as Run<P>;
      const skip = this.oldestSeq - run.first; // this run's events already evicted
      const held = run.ends.length - skip;
      const rest = heldSize(run, skip);
      if (this.count - this.maxEvents >= held || this.bytes - this.maxBytes >= rest) {
        this.dropHead(held, rest);
        continue;
      }
      // maybe both bounds are met by evicting part of this run: as many as the count needs, more for the size
      const from = startOf(run, skip);
      let n = Math.max(0, this.count - this.maxEvents);
      while (n < held && this.bytes - (startOf(run, skip + n) - from) > this.maxBytes) n++;
      if (n === held) {
        this.dropHead(held, rest);
        continue;
      }
      this.count -= n;
      this.bytes -= startOf(run, skip + n) - from;
      return;
    }
  }

  private dropHead(held: number, rest: number): void {
    this.count -= held;
    this.bytes -= rest;
    this.runs[this.head] = undefined; // let its payload go now
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.runs.length) {
      this.runs = this.runs.slice(this.head);
      this.head = 0;
    }
  }
}

/** Offset where event `i` of a run starts (one past the end of the run for i = ends.length). */
function startOf<P>(run: Run<P>, i: number): number {
  return i === 0 ? 0 : (run.ends[i - 1] as number) + 1;
}

/** Size of a run from event `skip` on (what the ring still counts for it). */
function heldSize<P>(run: Run<P>, skip: number): number {
  return (run.ends[run.ends.length - 1] as number) - startOf(run, skip);
}
