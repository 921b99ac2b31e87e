/** How much an `EventRing` holds. */
export interface EventRingLimits {
  /** Most events held; the oldest are evicted first. */
  readonly maxEvents: number;
  /**
   * Most event text held, in UTF-16 code units (bytes, for JSON that is mostly ASCII); no bound
   * on text when absent. Memory may exceed it by one run (a run's text goes when its last event does).
   */
  readonly maxChars?: number;
}

/** Events pushed together: their texts joined by commas, and where each one ends. */
interface Run {
  /** Seq of the run's first event. */
  readonly first: number;
  readonly text: string;
  /** `ends[i]`: offset just after event `first + i` in `text` (the next one starts one comma later). */
  readonly ends: readonly number[];
}

/** A range of events read from the ring. */
export interface RingSlice {
  /** The events' texts joined by commas, as a few strings to be joined by commas again. */
  readonly texts: readonly string[];
  /** Number of events in the range (0 when there are none after the reader's seq). */
  readonly count: number;
  /** Seq of the last event in the range (the reader's new cursor). */
  readonly lastSeq: number;
  /** True when some events after the reader's seq were already evicted. */
  readonly missed: boolean;
}

/**
 * A bounded ring of hub events held as their JSON text, with a sequence number that only grows
 * (from 1). Events pushed together (one tap batch) are kept as one run, one string, so the ring
 * holds a few large strings rather than one per event, and a range comes back as a few slices of
 * them. When full, the oldest events are evicted; a reader asking for "everything after seq N"
 * learns whether events it never saw were evicted.
 */
export class EventRing {
  private readonly maxEvents: number;
  private readonly maxChars: number;
  private runs: (Run | undefined)[] = [];
  /** Index of the oldest run still (partly) held. */
  private head = 0;
  private nextSeq = 1;
  private count = 0;
  private chars = 0;

  constructor(limits: number | EventRingLimits) {
    const { maxEvents, maxChars = Number.POSITIVE_INFINITY } =
      typeof limits === "number" ? { maxEvents: limits } : limits;
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new RangeError("ring capacity must be >= 1");
    if (!(maxChars > 0)) throw new RangeError("ring text bound must be > 0");
    this.maxEvents = maxEvents;
    this.maxChars = maxChars;
  }

  /** Appends events (each one's JSON text, in order) as one run; returns the seq of the first. */
  push(texts: readonly string[]): number {
    const first = this.nextSeq;
    if (texts.length === 0) return first;
    const ends: number[] = [];
    let at = -1;
    for (const t of texts) {
      at += t.length + 1;
      ends.push(at);
    }
    const text = texts.length === 1 ? (texts[0] as string) : texts.join(",");
    this.runs.push({ first, text, ends });
    this.nextSeq += texts.length;
    this.count += texts.length;
    this.chars += text.length;
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

  /** Text held, in UTF-16 code units, commas between events of a run included. */
  get heldChars(): number {
    return this.chars;
  }

  /** Events with seq > `after`, oldest first, at most `limit` of them. */
  after(after: number, limit = Number.POSITIVE_INFINITY): RingSlice {
    const from = Math.max(after + 1, this.oldestSeq);
    const missed = after + 1 < this.oldestSeq;
    const to = Math.min(this.latestSeq, from + limit - 1);
    if (to < from) return { texts: [], count: 0, lastSeq: from - 1, missed };
    const texts: string[] = [];
    for (let r = this.runAt(from), seq = from; seq <= to; r++) {
      const run = this.runs[r] as Run;
      const last = Math.min(to, run.first + run.ends.length - 1);
      const start = startOf(run, seq - run.first);
      const end = run.ends[last - run.first] as number;
      texts.push(start === 0 && end === run.text.length ? run.text : run.text.slice(start, end));
      seq = last + 1;
    }
    return { texts, count: to - from + 1, lastSeq: to, missed };
  }

  /** Index of the run holding `seq` (which must be held). */
  private runAt(seq: number): number {
    let lo = this.head;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.runs[mid] as Run).first <= seq) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Evicts the oldest events until both bounds hold; drops each run left with no event. */
  private evict(): void {
    while (this.count > this.maxEvents || this.chars > this.maxChars) {
      const run = this.runs[this.head] as Run;
      const skip = this.oldestSeq - run.first; // this run's events already evicted
      const held = run.ends.length - skip;
      const rest = heldText(run, skip);
      if (this.count - this.maxEvents >= held || this.chars - this.maxChars >= rest) {
        this.dropHead(held, rest);
        continue;
      }
      // maybe both bounds are met by evicting part of this run: as many as the count needs, more for the text
      const from = startOf(run, skip);
      let n = Math.max(0, this.count - this.maxEvents);
      while (n < held && this.chars - (startOf(run, skip + n) - from) > this.maxChars) n++;
      if (n === held) {
        this.dropHead(held, rest);
        continue;
      }
      this.count -= n;
      this.chars -= startOf(run, skip + n) - from;
      return;
    }
  }

  private dropHead(held: number, rest: number): void {
    this.count -= held;
    this.chars -= rest;
    this.runs[this.head] = undefined; // let its text go now
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.runs.length) {
      this.runs = this.runs.slice(this.head);
      this.head = 0;
    }
  }
}

/** Offset where event `i` of a run starts. */
function startOf(run: Run, i: number): number {
  return i === 0 ? 0 : (run.ends[i - 1] as number) + 1;
}

/** Text of a run from event `skip` on (what the ring still counts for it). */
function heldText(run: Run, skip: number): number {
  return run.text.length - startOf(run, skip);
}
