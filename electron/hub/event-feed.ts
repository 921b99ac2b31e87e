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
 * Events are held as their JSON text, encoded once however many subscribers read them; a tap's
 * batch of records is one run of the ring, and a batch message is built from a few slices of them.
 */
export class EventFeed {
  private readonly ring: EventRing;
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: FeedOptions) {
    this.ring = new EventRing(options.ringSize);
  }

  /** Appends an event to the ring and schedules a flush; returns its seq. */
  publish(body: HubEventBody): number {
    const seq = this.ring.latestSeq + 1;
    const json = JSON.stringify(body);
    return this.append([`${json.slice(0, -1)},"seq":${seq}}`]);
  }

  /**
   * Appends one `record` event per record, each record already JSON text (the same text the hub
   * writes to the trace file), so a record is encoded once on its way to disk and to every UI.
   * Returns the seq of the first.
   */
  publishRecords(traceId: string, recordJson: readonly string[]): number {
    const open = `{"kind":"record","traceId":${JSON.stringify(traceId)},"record":`;
    const first = this.ring.latestSeq + 1;
    return this.append(recordJson.map((json, i) => `${open}${json},"seq":${first + i}}`));
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

  /** `texts`: the events' JSON, seqs from latestSeq + 1 on. */
  private append(texts: readonly string[]): number {
    const seq = this.ring.push(texts);
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
        const batch = this.ring.after(sub.cursor, this.options.maxBatch);
        if (batch.missed) {
          const gap: HubGap = {
            t: "gap",
            after: sub.cursor,
            oldestSeq: this.ring.oldestSeq,
            traceIds: this.options.traceIds(),
          };
          sub.sink.sendText(JSON.stringify(gap));
          sub.cursor = gap.oldestSeq - 1;
        }
        if (batch.count === 0) break;
        sub.cursor = batch.lastSeq;
        sub.sink.sendText(eventsMessage(batch.texts));
      }
      if (sub.cursor < this.ring.latestSeq) behind = true;
    }
    if (behind) this.schedule();
  }
}

/** `{"t":"events","events":[...]}` around the ring's texts, built as one flat string (one copy). */
function eventsMessage(texts: readonly string[]): string {
  const parts = ['{"t":"events","events":['];
  texts.forEach((t, i) => {
    if (i > 0) parts.push(",");
    parts.push(t);
  });
  parts.push("]}");
  return parts.join("");
}
