import { EventRing, type RingSegment } from "../../shared/hub/event-ring.js";
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

/**
 * What one run of the ring holds: a tap batch's records as the very bytes of their trace lines
 * (shared with the trace file, outside the JS heap) with the start of their events' JSON, or one
 * other event's JSON without its closing brace. The `seq` completes each event when it is sent.
 */
type Run = { readonly open: string; readonly lines: Buffer } | { readonly event: string };

interface Subscriber {
  readonly sink: FeedSink;
  cursor: number;
}

/**
 * The hub's event feed: a bounded ring with growing seqs, a cursor per subscriber, and coalesced
 * flushes that send one message per batch. A subscriber asks for everything after seq N: it is
 * caught up from the ring, then gets live events; if N fell out of the ring it is told so first.
 * Each record is JSON-encoded once, for the trace file; the ring holds a tap batch as those very
 * bytes and batch messages are built from them. Held as strings, the ring's tens of megabytes
 * grew the JS heap, and the garbage collector's slack around it, by about three times their size
 * (hub bench: 50,000 events held cost ~75 MB more peak RSS as strings than as bytes).
 */
export class EventFeed {
  private readonly ring: EventRing<Run>;
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: FeedOptions) {
    this.ring = new EventRing(options.ringSize);
  }

  /** Appends an event to the ring and schedules a flush; returns its seq. */
  publish(body: HubEventBody): number {
    const event = JSON.stringify(body).slice(0, -1);
    return this.append({ event }, [event.length]);
  }

  /**
   * Appends one `record` event per record: `lines` are the records' JSON (their trace lines) and
   * `bytes` the same lines joined by newlines, UTF-8 encoded (what the trace file got). Returns
   * the seq of the first.
   */
  publishRecords(traceId: string, lines: readonly string[], bytes: Buffer): number {
    const ends: number[] = [];
    let at = -1;
    let chars = -1;
    for (const line of lines) chars += line.length + 1;
    const ascii = chars === bytes.length; // then every char is one byte
    for (const line of lines) {
      at += (ascii ? line.length : Buffer.byteLength(line)) + 1;
      ends.push(at);
    }
    const open = `{"kind":"record","traceId":${JSON.stringify(traceId)},"record":`;
    return this.append({ open, lines: bytes }, ends);
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

  private append(run: Run, ends: readonly number[]): number {
    const seq = this.ring.push(run, ends);
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
        sub.sink.sendText(eventsMessage(batch.segments));
      }
      if (sub.cursor < this.ring.latestSeq) behind = true;
    }
    if (behind) this.schedule();
  }
}

/** `{"t":"events","events":[...]}` with the segments' events, built as one flat string (one copy). */
function eventsMessage(segments: readonly RingSegment<Run>[]): string {
  const parts = ['{"t":"events","events":['];
  for (const { payload, first, start, end } of segments) {
    if (parts.length > 1) parts.push(",");
    if ("event" in payload) {
      parts.push(payload.event, `,"seq":${first}}`);
      continue;
    }
    let seq = first;
    for (const line of payload.lines.toString("utf8", start, end).split("\n")) {
      if (seq > first) parts.push(",");
      parts.push(payload.open, line, `,"seq":${seq++}}`);
    }
  }
  parts.push("]}");
  return parts.join("");
}
