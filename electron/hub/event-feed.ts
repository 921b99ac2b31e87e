import { EventRing } from "../../shared/hub/event-ring.js";
import type { HubEvent, HubEventBody, TraceSummary } from "../../shared/hub/hub-event.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";

/** Where a subscriber's batches go (a UI WebSocket, or a test double). */
export interface FeedSink {
  send(message: HubToUi): void;
  /** Bytes queued but not yet written; the feed skips a flush while this is high. */
  readonly bufferedAmount: number;
}

/** Tuning of the feed. */
export interface FeedOptions {
  readonly ringSize: number;
  /** Pushes are coalesced: at most one batch per subscriber per this many ms. */
  readonly flushMs: number;
  /** Most events in one batch message. */
  readonly maxBatch: number;
  /** A subscriber with more than this many bytes queued is skipped until it drains. */
  readonly highWaterBytes: number;
  /** The on-disk traces to offer a subscriber whose seq fell out of the ring. */
  readonly traces: () => Promise<TraceSummary[]>;
}

interface Subscriber {
  readonly sink: FeedSink;
  cursor: number;
  busy: boolean;
}

/**
 * The hub's event feed: a bounded ring with growing seqs, a cursor per subscriber, and coalesced
 * flushes that send one message per batch. A subscriber asks for everything after seq N: it is
 * caught up from the ring, then gets live events; if N fell out of the ring it is told so first.
 */
export class EventFeed {
  private readonly ring: EventRing<HubEvent>;
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: FeedOptions) {
    this.ring = new EventRing(options.ringSize);
  }

  /** Appends an event to the ring and schedules a flush; returns its seq. */
  publish(body: HubEventBody): number {
    const seq = this.ring.latestSeq + 1;
    this.ring.push({ ...body, seq } as HubEvent);
    if (this.subscribers.size > 0) this.schedule();
    return seq;
  }

  /** Newest and oldest seq in the ring. */
  position(): { latestSeq: number; oldestSeq: number } {
    return { latestSeq: this.ring.latestSeq, oldestSeq: this.ring.oldestSeq };
  }

  /** Starts sending `sink` every event after `after`; returns the unsubscribe function. */
  subscribe(sink: FeedSink, after: number): () => void {
    const sub: Subscriber = { sink, cursor: Math.min(after, this.ring.latestSeq), busy: false };
    // asking for a seq the hub never reached (a UI from a previous hub run) means "from the start"
    if (after > this.ring.latestSeq) sub.cursor = 0;
    this.subscribers.add(sub);
    this.schedule(0);
    return () => this.subscribers.delete(sub);
  }

  /** Stops flushing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.subscribers.clear();
  }

  private schedule(delay = this.options.flushMs): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
  }

  private flush(): void {
    let behind = false;
    for (const sub of this.subscribers) {
      if (sub.busy) continue;
      if (sub.sink.bufferedAmount > this.options.highWaterBytes) {
        behind = true;
        continue;
      }
      const { events, missed } = this.ring.after(sub.cursor, this.options.maxBatch);
      if (missed) {
        sub.busy = true;
        const after = sub.cursor;
        const oldestSeq = this.ring.oldestSeq;
        sub.cursor = oldestSeq - 1;
        void this.options
          .traces()
          .catch(() => [])
          .then((traces) => {
            if (!this.subscribers.has(sub)) return;
            sub.sink.send({ t: "gap", after, oldestSeq, traces });
            sub.busy = false;
            this.schedule(0);
          });
        continue;
      }
      if (events.length === 0) continue;
      sub.cursor = (events[events.length - 1] as { seq: number }).seq;
      sub.sink.send({ t: "events", events: events.map((e) => e.event) });
      if (sub.cursor < this.ring.latestSeq) behind = true;
    }
    if (behind) this.schedule();
  }
}
