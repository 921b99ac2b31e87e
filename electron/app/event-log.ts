/**
 * A bounded ring of app events with a sequence number that only grows, a cursor per subscriber
 * and coalesced flushes: a burst of events reaches each subscriber as one batch. A late subscriber
 * asks for everything after seq N and is told (`gap`) when the ring no longer holds all of it.
 */
import type { AppEvent, EventBatch } from "../../shared/app/app-event.js";

/** An event before the log numbers it. */
export type UnnumberedEvent = AppEvent extends infer E
  ? E extends AppEvent
    ? Omit<E, "seq">
    : never
  : never;

interface Subscriber {
  cursor: number;
  readonly onBatch: (batch: EventBatch) => void;
  gap: boolean;
}

/** The app core's event buffer; subscribers get batches on the next macrotask after events arrive. */
export class EventLog {
  private readonly ring: AppEvent[] = [];
  private nextSeq = 1;
  private readonly subscribers = new Set<Subscriber>();
  private flushScheduled = false;

  constructor(private readonly capacity = 50_000) {}

  /** The seq of the newest event, 0 before the first. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Numbers and stores an event, and schedules a flush to subscribers. Returns its seq. */
  append(event: UnnumberedEvent): number {
    const numbered = { ...event, seq: this.nextSeq++ } as AppEvent;
    this.ring.push(numbered);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    this.scheduleFlush();
    return numbered.seq;
  }

  /** Delivers every held event after `fromSeq`, then every new one, until the returned function is called. */
  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    const oldest = this.ring[0]?.seq ?? this.nextSeq;
    const sub: Subscriber = {
      cursor: Math.max(0, fromSeq),
      onBatch,
      gap: fromSeq + 1 < oldest && fromSeq < this.lastSeq,
    };
    this.subscribers.add(sub);
    this.scheduleFlush();
    return () => {
      this.subscribers.delete(sub);
    };
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.subscribers.size === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    for (const sub of [...this.subscribers]) {
      if (!this.subscribers.has(sub) || (sub.cursor >= this.lastSeq && !sub.gap)) continue;
      const events = this.eventsAfter(sub.cursor);
      const batch: EventBatch = { events, gap: sub.gap };
      sub.gap = false;
      sub.cursor = this.lastSeq;
      try {
        sub.onBatch(batch);
      } catch {
        // A failing subscriber (a closed window, a dead socket) must not starve the others.
        this.subscribers.delete(sub);
      }
    }
  }

  private eventsAfter(seq: number): AppEvent[] {
    const first = this.ring[0]?.seq ?? this.nextSeq;
    return this.ring.slice(Math.max(0, seq + 1 - first));
  }
}
