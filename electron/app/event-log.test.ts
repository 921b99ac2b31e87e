import { describe, expect, it } from "vitest";
import type { EventBatch } from "../../shared/app/app-event.js";
import { EventLog } from "./event-log.js";

const note = (text: string) =>
  ({ kind: "record", record: { type: "note", seq: 0, ts: 0, level: "info", text } }) as const;

function nextBatch(log: EventLog, fromSeq: number): Promise<EventBatch> {
  return new Promise((resolve) => {
    const off = log.subscribe(fromSeq, (b) => {
      off();
      resolve(b);
    });
  });
}

describe("EventLog", () => {
  it("numbers events from 1 and replays what a late subscriber missed, in one batch", async () => {
    const log = new EventLog();
    expect(log.append(note("a"))).toBe(1);
    log.append(note("b"));
    log.append({ kind: "cleared" });
    const batch = await nextBatch(log, 0);
    expect(batch.gap).toBe(false);
    expect(batch.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it("delivers only events after the subscriber's seq", async () => {
    const log = new EventLog();
    for (const t of ["a", "b", "c"]) log.append(note(t));
    const batch = await nextBatch(log, 2);
    expect(batch.events.map((e) => e.seq)).toEqual([3]);
  });

  it("coalesces a burst into one batch per subscriber", async () => {
    const log = new EventLog();
    const batches: EventBatch[] = [];
    let resolveTwo: () => void;
    const two = new Promise<void>((r) => {
      resolveTwo = r;
    });
    log.subscribe(0, (b) => {
      batches.push(b);
      if (batches.length === 2) resolveTwo();
    });
    log.append(note("first"));
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 100; i++) log.append(note(String(i)));
    await two;
    expect(batches.map((b) => b.events.length)).toEqual([1, 100]);
  });

  it("reports a gap when the ring dropped events the subscriber asked for", async () => {
    const log = new EventLog(3);
    for (let i = 0; i < 10; i++) log.append(note(String(i)));
    const batch = await nextBatch(log, 2);
    expect(batch.gap).toBe(true);
    expect(batch.events.map((e) => e.seq)).toEqual([8, 9, 10]);
  });

  it("keeps serving other subscribers when one throws", async () => {
    const log = new EventLog();
    log.subscribe(0, () => {
      throw new Error("window closed");
    });
    log.append(note("x"));
    const batch = await nextBatch(log, 0);
    expect(batch.events).toHaveLength(1);
  });
});
