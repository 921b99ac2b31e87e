import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import { EventFeed, type FeedOptions, type FeedSink } from "./event-feed.js";

/** A sink that keeps every message; `bufferedAmount` is whatever the test sets. */
function sink(): FeedSink & { messages: HubToUi[]; bufferedAmount: number } {
  const messages: HubToUi[] = [];
  return { messages, bufferedAmount: 0, sendText: (text) => messages.push(JSON.parse(text) as HubToUi) };
}
const eventsIn = (messages: HubToUi[]): HubEvent[] =>
  messages.flatMap((m) => (m.t === "events" ? m.events : []));

function feed(options: Partial<FeedOptions> = {}): EventFeed {
  return new EventFeed({
    ringSize: 100,
    flushMs: 25,
    maxBatch: 10,
    highWaterBytes: 1_000,
    traceIds: () => ["t1"],
    ...options,
  });
}
const recordJson = (seq: number) =>
  JSON.stringify({ type: "note", seq, ts: seq, level: "info", text: `n${seq}` });
/** Publishes records of tap seqs `seqs` as the tap endpoint does: their lines and the bytes the trace file got. */
const publish = (f: EventFeed, seqs: readonly number[], text = (seq: number) => recordJson(seq)) => {
  const lines = seqs.map(text);
  return f.publishRecords("t1", lines, Buffer.from(lines.join("\n")));
};
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("EventFeed", () => {
  it("sends each event once, in seq order, in batches of at most maxBatch, records' JSON as given", () => {
    const f = feed();
    f.publish({ kind: "tap-gap", traceId: "t1", dropped: 3, at: 5 });
    expect(publish(f, [2, 3, 4])).toBe(2);
    const s = sink();
    f.subscribe(s, 0);
    publish(f, range(5, 20));
    vi.advanceTimersByTime(25);
    expect(s.messages.map((m) => (m.t === "events" ? m.events.length : m.t))).toEqual([10, 10, 4]);
    const events = eventsIn(s.messages);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(events[0]).toEqual({ kind: "tap-gap", traceId: "t1", dropped: 3, at: 5, seq: 1 });
    expect(events[1]).toEqual({ kind: "record", traceId: "t1", record: JSON.parse(recordJson(2)), seq: 2 });
    expect(f.position()).toEqual({ latestSeq: 24, oldestSeq: 1 });
  });

  it("coalesces: events published between flushes go out together", () => {
    const f = feed({ maxBatch: 100 });
    const s = sink();
    f.subscribe(s, 0);
    vi.advanceTimersByTime(0);
    for (let i = 1; i <= 30; i++) publish(f, [i]);
    expect(s.messages).toEqual([]);
    vi.advanceTimersByTime(25);
    expect(s.messages).toHaveLength(1);
    expect(eventsIn(s.messages)).toHaveLength(30);
  });

  it("stops sending to a subscriber over the high-water mark and resumes once it drained", () => {
    const f = feed();
    const s = sink();
    f.subscribe(s, 0);
    s.bufferedAmount = 5_000;
    publish(f, range(1, 15));
    vi.advanceTimersByTime(200);
    expect(s.messages).toEqual([]);
    s.bufferedAmount = 0;
    vi.advanceTimersByTime(25);
    expect(eventsIn(s.messages).map((e) => e.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it("tells a subscriber that fell out of the ring, then goes on from the oldest event held", () => {
    const f = feed({ ringSize: 8 });
    const s = sink();
    f.subscribe(s, 0);
    s.bufferedAmount = 5_000; // a slow UI: nothing goes out while the ring moves on
    publish(f, range(1, 20));
    vi.advanceTimersByTime(25);
    s.bufferedAmount = 0;
    vi.advanceTimersByTime(25);
    expect(s.messages[0]).toEqual({ t: "gap", after: 0, oldestSeq: 13, traceIds: ["t1"] });
    expect(eventsIn(s.messages).map((e) => e.seq)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
    publish(f, [21]);
    vi.advanceTimersByTime(25);
    expect(s.messages.filter((m) => m.t === "gap")).toHaveLength(1);
    expect(eventsIn(s.messages).at(-1)?.seq).toBe(21);
  });

  it("serves a late subscriber only what follows its seq, and a seq from another hub run from the start", () => {
    const f = feed();
    publish(f, range(1, 6));
    const late = sink();
    f.subscribe(late, 4);
    const stranger = sink();
    f.subscribe(stranger, 900);
    vi.advanceTimersByTime(0);
    expect(eventsIn(late.messages).map((e) => e.seq)).toEqual([5, 6]);
    expect(eventsIn(stranger.messages).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("hands on records that are not ASCII exactly, cut anywhere between events", () => {
    const f = feed({ maxBatch: 3 });
    const text = (seq: number) =>
      JSON.stringify({ type: "note", seq, ts: seq, level: "info", text: `é${"🙂".repeat(seq)}\u2028"\\` });
    publish(f, range(1, 4), text);
    publish(f, range(5, 4), text);
    const s = sink();
    f.subscribe(s, 1);
    vi.advanceTimersByTime(0);
    const records = eventsIn(s.messages).map((e) => (e.kind === "record" ? e.record : undefined));
    expect(records).toEqual(range(2, 7).map((seq) => JSON.parse(text(seq))));
    expect(s.messages.map((m) => (m.t === "events" ? m.events.length : m.t))).toEqual([3, 3, 1]);
  });
});
