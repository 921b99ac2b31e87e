import type { TraceRecord } from "../../../shared/trace/record.js";

/** Rough size of a record in memory: the text it carries plus a fixed overhead. */
function recordWeight(record: TraceRecord): number {
  switch (record.type) {
    case "frame":
      return 96 + record.raw.length;
    case "agent-stderr":
    case "note":
      return 96 + record.text.length;
    default:
      return 128;
  }
}

/**
 * The hub link's bounded queue of records not yet acknowledged by a hub. The front `inFlight`
 * records were sent on the current connection and await their ack; the rest wait to be sent.
 * When full (too many records, or
 * too many bytes of text: a flood of large frames must not hold gigabytes), the oldest record is discarded; discarded records never sent anywhere are counted
 * so the hub can be told about the gap (the tap's own trace file keeps them all).
 */
export class LinkBacklog {
  private items: (TraceRecord | undefined)[] = [];
  private weights: number[] = [];
  private bytes = 0;
  private head = 0;
  private inFlightCount = 0;
  private droppedUnreported = 0;
  private droppedTotal = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** Counts a record that was never queued (no hub to hold it for); the next batch reports it as dropped. */
  skip(): void {
    this.droppedUnreported++;
    this.droppedTotal++;
  }

  /** Queues a record, discarding the oldest when full. */
  push(record: TraceRecord): void {
    const weight = recordWeight(record);
    this.items.push(record);
    this.weights.push(weight);
    this.bytes += weight;
    this.trim();
  }

  private trim(): void {
    while (this.size > this.capacity || (this.bytes > this.maxBytes && this.size > 1)) {
      this.bytes -= this.weights[this.head] ?? 0;
      this.items[this.head] = undefined; // released now, not at the next compaction
      this.head++;
      if (this.inFlightCount > 0) this.inFlightCount--;
      else {
        this.droppedUnreported++;
        this.droppedTotal++;
      }
      this.compact();
    }
  }

  /** Records queued (sent or not) and not yet acknowledged. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** The seq of the oldest record queued (sent or not), if any. */
  get firstSeq(): number | undefined {
    return this.items[this.head]?.seq;
  }

  /** Records sent on the current connection and not yet acknowledged. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Every record discarded unsent since the link started. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Takes up to `max` unsent records (now in flight) and the count of unsent records dropped since the last take. */
  take(max: number): { records: TraceRecord[]; dropped: number } {
    const from = this.head + this.inFlightCount;
    const records = this.items.slice(from, from + max) as TraceRecord[];
    this.inFlightCount += records.length;
    const dropped = this.droppedUnreported;
    this.droppedUnreported = 0;
    return { records, dropped };
  }

  /** The hub stored every record with seq <= `upTo`: forget them. */
  ack(upTo: number): void {
    while (this.head < this.items.length && (this.items[this.head] as TraceRecord).seq <= upTo) {
      this.bytes -= this.weights[this.head] ?? 0;
      this.items[this.head] = undefined;
      this.head++;
      if (this.inFlightCount > 0) this.inFlightCount--;
    }
    this.compact();
  }

  /** The connection ended: everything in flight is unsent again (a new hub gets it all). */
  resetInFlight(): void {
    this.inFlightCount = 0;
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.weights = this.weights.slice(this.head);
      this.head = 0;
    }
  }
}
