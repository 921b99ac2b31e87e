import { EventRing } from "../../shared/hub/event-ring.js";
import type { HubEventBody } from "../../shared/hub/hub-event.js";
import type { HubGap } from "../../shared/hub/ui-wire.js";

/** Where a subscriber's batches go (a UI WebSocket, or a test double). */
export interface FeedSink {
  /** Sends one JSON text message (a `HubToUi`). */
  sendText(text: string): void;
  /** Bytes queued but not yet written; the feed stops sending to a sink while this is high. */
  readonly bufferedAmount: number;
}

/** Tuning of the feed. */
export interface FeedOptions {
  readonly ringSize: number;
  /** Pushes are coalesced: a flush runs at most every this many ms. */
  readonly flushMs: number;
  /** Most events in one batch message. */
  readonly maxBatch: number;
  /** A subscriber with more than this many bytes queued gets nothing more until it drains. */
  readonly highWaterBytes: number;
  /** The ids of the on-disk traces to offer a subscriber whose seq fell out of the ring. */
  readonly traceIds: () => string[];
}

interface Subscriber {
  readonly sink: FeedSink;
  cursor: number;
}

/**
 * The hub's event feed: a bounded ring with growing seqs, a cursor per subscriber, and coalesced
 * flushes that send one message per batch. A subscriber asks for everything after seq N: it is
 * caught up from the ring, then gets live events; if N fell out of the ring it is told so first.
 * Events are held as their JSON text, encoded once however many subscribers read them.
 */
export class EventFeed {
  private readonly ring: EventRing<string>;
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: FeedOptions) {
    this.ring = new EventRing(options.ringSize);
  }

  /** Appends an event to the ring and schedules a flush; returns its seq. */
  publish(body: HubEventBody): number {
    const json = JSON.stringify(body);
    return this.append(json.slice(0, -1));
  }

  /**
   * Appends a `record` event whose record is already JSON text (the same text the hub writes to
   * the trace file), so a record is encoded once on its way to disk and to every UI.
   */
  publishRecord(traceId: string, recordJson: string): number {
    return this.append(`{"kind":"record","traceId":${JSON.stringify(traceId)},"record":${recordJson}`);
  }

  /** Newest and oldest seq in the ring. */
  position(): { latestSeq: number; oldestSeq: number } {
    return { latestSeq: this.ring.latestSeq, oldestSeq: this.ring.oldestSeq };
  }

  /** Starts sending `sink` every event after `after`; returns the unsubscribe function. */
  subscribe(sink: FeedSink, after: number): () => void {
    // a seq this hub never reached (a UI remembering a previous hub run) means "from the start"
    const sub: Subscriber = { sink, cursor: after > this.ring.latestSeq ? 0 : after };
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

  /** `open` is an event's JSON without its closing brace; the seq completes it. */
  private append(open: string): number {
    const seq = this.ring.latestSeq + 1;
    this.ring.push(`${open},"seq":${seq}}`);
    if (this.subscribers.size > 0) this.schedule();
    return seq;
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
      // several batches per flush when the hub is busy and flushes come late, until the socket is full
      while (sub.sink.bufferedAmount <= this.options.highWaterBytes) {
        const { events, missed } = this.ring.after(sub.cursor, this.options.maxBatch);
        if (missed) {
          const gap: HubGap = {
            t: "gap",
            after: sub.cursor,
            oldestSeq: this.ring.oldestSeq,
            traceIds: this.options.traceIds(),
          };
          sub.sink.sendText(JSON.stringify(gap));
        }
        const last = events[events.length - 1];
        if (!last) break;
        sub.cursor = last.seq;
        sub.sink.sendText(`{"t":"events","events":[${events.map((e) => e.event).join(",")}]}`);
      }
      if (sub.cursor < this.ring.latestSeq) behind = true;
    }
    if (behind) this.schedule();
  }
}
