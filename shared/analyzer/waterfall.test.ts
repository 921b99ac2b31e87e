import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import {
  attemptSpan,
  barOf,
  latencyText,
  spanOf,
  submissionSpan,
  trackOf,
  trackText,
  windowOf,
} from "./waterfall.js";

const T0 = 1_700_000_000_000;

function model(sc: TraceScript) {
  const a = new Analyzer();
  a.ingestHeader(sc.header());
  for (const r of sc.records) a.ingest(r);
  return a.model();
}

describe("waterfall geometry", () => {
  it("draws each attempt from its start offset for its duration within the submission's window", () => {
    // Attempt 1 at +1 ms, answer dropped at +101 ms; attempt 2 at +301 ms, answered at +401 ms.
    const sc = new TraceScript(T0)
      .prompt(1, 1, "s", "deploy", "K")
      .wait(99)
      .inserted(1, 1, "m1", { dropped: true })
      .wait(199)
      .prompt(1, 2, "s", "deploy", "K")
      .wait(99)
      .inserted(1, 2, "m1");
    const [a1, a2] = model(sc).submissions[0]?.attempts ?? [];
    const spans = [attemptSpan(a1!), attemptSpan(a2!)];
    expect(spans.map((s) => s.state)).toEqual(["dropped", "done"]);
    const w = windowOf(spans);
    expect(w).toEqual({ start: T0 + 1, end: T0 + 401 });
    const [b1, b2] = spans.map((s) => barOf(s, w!));
    expect(b1).toEqual({ left: 0, width: 0.25, state: "dropped", open: false });
    expect(b2).toEqual({ left: 0.75, width: 0.25, state: "done", open: false });
    expect(spans.map(latencyText)).toEqual(["100 ms, answer dropped", "100 ms"]);
    // The submission as a whole: from the first send to the last answer.
    expect(submissionSpan([a1!, a2!])).toEqual({ start: T0 + 1, end: T0 + 401, state: "done" });
    expect(latencyText(submissionSpan([a1!, a2!]))).toBe("400 ms");
  });

  it("never invents a duration: pending runs to the window's end, lost stops at the loss, unknown has none", () => {
    const sc = new TraceScript(T0)
      .spawn(7)
      .prompt(1, 1, "s", "one", "K1")
      .wait(48)
      .prompt(1, 2, "s", "two", "K2")
      .wait(49)
      .exit(7, null, "SIGKILL");
    const m = model(sc);
    const lostAttempt = m.submissions[0]?.attempts[0];
    expect(lostAttempt?.outcome.kind).toBe("lost");
    const exitTs = sc.records.at(-1)!.ts;
    const lost = attemptSpan(lostAttempt!, (seq) => sc.records.find((r) => r.seq === seq)?.ts);
    const pending = spanOf(T0 + 200, null, { kind: "pending" });
    expect(lost).toEqual({ start: T0 + 2, end: null, state: "lost", lostAt: exitTs });
    const w = windowOf([lost, pending], T0 + 402);
    expect(w).toEqual({ start: T0 + 2, end: T0 + 402 });
    const bl = barOf(lost, w!);
    expect(bl.open).toBe(true);
    expect(bl.left).toBe(0);
    expect(bl.width).toBeCloseTo((exitTs - (T0 + 2)) / 400, 10);
    const bp = barOf(pending, w!);
    expect(bp).toMatchObject({ left: 0.495, state: "pending", open: true });
    expect(bp.left + bp.width).toBeCloseTo(1, 10);
    expect(latencyText(lost)).toBe("no answer (lost after 99 ms)");
    expect(latencyText(pending)).toBe("pending");
    expect(latencyText(null)).toBe("time unknown");
    // Both prompts were in flight when the agent died: as a whole, lost at the exit.
    const tsOf = (seq: number) => sc.records.find((r) => r.seq === seq)?.ts;
    const both = submissionSpan([lostAttempt!, m.submissions[1]!.attempts[0]!], tsOf);
    expect(both).toEqual({ start: T0 + 2, end: null, state: "lost", lostAt: exitTs });
    // One still pending makes the whole pending.
    const open = { ...lostAttempt!, outcome: { kind: "pending" as const } };
    expect(submissionSpan([lostAttempt!, open], tsOf)).toEqual({
      start: T0 + 2,
      end: null,
      state: "pending",
    });
  });

  it("handles a dropped request, an empty set and a zero-length window", () => {
    const nd = spanOf(T0, null, { kind: "dropped", frame: "request", seq: 1 });
    expect(nd.state).toBe("not-delivered");
    expect(latencyText(nd)).toBe("not delivered");
    expect(windowOf([])).toBeNull();
    const w = windowOf([nd]);
    expect(w).toEqual({ start: T0, end: T0 });
    expect(barOf(nd, w!)).toEqual({ left: 0, width: 0, state: "not-delivered", open: true });
    expect(latencyText(spanOf(T0, 1500, { kind: "answered" }))).toBe("1.5 s");
  });

  it("draws a growing window on a track that moves no bar until the window outgrows it", () => {
    const at = (len: number) => trackOf({ start: T0, end: T0 + len });
    // The window's length rounded up to 1, 1.5, 2, 3, 4, 5 or 7.5 times a power of ten.
    expect(
      [1000, 1001, 1600, 2500, 4000, 4500, 6000, 9000, 12_300, 30_000].map((l) => at(l).end - T0),
    ).toEqual([1000, 1500, 2000, 3000, 4000, 5000, 7500, 10_000, 15_000, 30_000]);
    expect(trackOf({ start: 0, end: 0.45 }).end).toBeCloseTo(0.5, 10);
    // A zero-length window is its own track.
    expect(at(0)).toEqual({ start: T0, end: T0 });
    // Every window fills more than two thirds of its track.
    for (let len = 1; len < 1e7; len *= 1.37) {
      const t = at(len);
      expect(t.end - T0).toBeGreaterThanOrEqual(len);
      expect(len / (t.end - T0)).toBeGreaterThan(2 / 3);
    }
    // A done bar keeps its place while a live window grows from 11 s to 14 s (both on the 15 s track)…
    const done = spanOf(T0 + 3000, 1500, { kind: "answered" });
    const bars = [11_000, 12_500, 14_000].map((l) => barOf(done, at(l), T0 + l));
    expect(new Set(bars.map((b) => `${b.left} ${b.width}`)).size).toBe(1);
    expect(bars[0]).toEqual({ left: 0.2, width: 0.1, state: "done", open: false });
    // …and a pending one runs to the window's end, not to the track's.
    const pending = spanOf(T0 + 6000, null, { kind: "pending" });
    const bp = barOf(pending, at(12_000), T0 + 12_000);
    expect(bp.left).toBeCloseTo(0.4, 10);
    expect(bp.left + bp.width).toBeCloseTo(0.8, 10);
    // Past 15 s the next step (20 s) rescales every bar at once.
    expect(barOf(done, at(15_001), T0 + 15_001)).toEqual({
      left: 0.15,
      width: 0.075,
      state: "done",
      open: false,
    });
  });

  it("names a track's length without a trailing .0, as the Waterfall header shows it", () => {
    const lengths = [11_100, 1_234, 120, 16_100, 80_000].map((len) => trackOf({ start: T0, end: T0 + len }));
    expect(lengths.map((t) => trackText(t.end - t.start))).toEqual([
      "15 s",
      "1.5 s",
      "150 ms",
      "20 s",
      "1 min 40 s",
    ]);
    expect(trackText(7_500)).toBe("7.5 s");
  });
});
