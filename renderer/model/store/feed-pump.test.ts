import { describe, expect, it, vi } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import type { DemoStatus } from "../../../shared/demo/demo-wire.js";
import type { HubEvent, TraceSummary } from "../../../shared/hub/hub-event.js";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { NO_FILTER } from "../filter/timeline-filter.js";
import { createInspector } from "./inspector-store.js";

/** The hub's trace files as a test sets them: each `readTracePreviews` waits until the test releases it. */
class HubFiles {
  readonly files = new Map<string, string>();
  readonly live = new Map<string, boolean>();
  readonly reads: string[] = [];
  private waiting: Array<() => void> = [];

  readonly bridge = {
    shell: "browser",
    listTraces: async () => ({
      traces: [...this.files.keys()].map(
        (id): TraceSummary => ({
          id,
          bytes: 0,
          modifiedAt: "",
          live: this.live.get(id) ?? false,
          imported: false,
        }),
      ),
    }),
    readTracePreviews: ({ id }: { id: string }) =>
      new Promise<{ text: string }>((resolve, reject) => {
        this.reads.push(id);
        this.waiting.push(() => {
          const text = this.files.get(id);
          if (text === undefined) reject(new Error("no such trace"));
          else resolve({ text });
        });
      }),
  } as unknown as InspectorBridge;

  /** Answers every read asked for so far, once some are waiting (bounded). */
  async release(): Promise<void> {
    await vi.waitFor(() => expect(this.waiting.length).toBeGreaterThan(0), { timeout: 2_000 });
    for (const w of this.waiting.splice(0)) w();
  }
}

function setup(files = new HubFiles()) {
  const frames: Array<() => void> = [];
  const inspector = createInspector(files.bridge, { theme: "dark", largeText: false }, (cb) =>
    frames.push(cb),
  );
  const runFrames = () => {
    while (frames.length > 0) frames.shift()!();
  };
  let sets = 0;
  inspector.store.subscribe(() => sets++);
  /** Waits (bounded) until the pump queued a frame, then runs it. */
  const nextFrame = async () => {
    await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0), { timeout: 2_000 });
    runFrames();
  };
  return { ...inspector, files, runFrames, nextFrame, sets: () => sets };
}

function events(traceId: string, sc: TraceScript, from: number): HubEvent[] {
  return [
    { seq: from, kind: "tap-attached", traceId, tapId: "tap-0001", header: sc.header(), at: 0 },
    ...sc.records.map((record, i) => ({ seq: from + 1 + i, kind: "record" as const, traceId, record })),
  ];
}

describe("the feed pump", () => {
  it("applies everything queued in a frame with one store update and follows the newest live trace", () => {
    const t = setup();
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K").inserted(1, 1, "m1");
    t.pump.push({ kind: "hub", message: { t: "events", events: events("a", sc, 1) } });
    t.pump.push({ kind: "hub", message: { t: "fault-rules", rules: [], faults: [], recent: [] } });
    t.pump.push({ kind: "hub", message: { t: "gap", after: 0, oldestSeq: 5, traceIds: [] } });
    expect(t.sets()).toBe(0);
    t.runFrames();
    expect(t.sets()).toBe(1);
    const s = t.store.getState();
    expect(s.traceId).toBe("a");
    expect(s.view.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["single"]);
    expect(s.gaps).toBe(1);

    t.pump.push({ kind: "hub", message: { t: "events", events: events("b", sc, 10) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("b");
    t.store.getState().selectTrace("a");
    t.pump.push({ kind: "hub", message: { t: "events", events: events("c", sc, 20) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("a");
    expect(t.store.getState().traces.map((e) => e.id)).toEqual(["c", "b", "a"]);
  });

  it("follows the newest live trace until a pick, clears the old trace's filters on every switch, and follows again when asked", () => {
    const t = setup();
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K").inserted(1, 1, "m1");
    expect(t.store.getState().followNewest).toBe(true);
    t.pump.push({ kind: "hub", message: { t: "events", events: events("a", sc, 1) } });
    t.runFrames();
    t.store.getState().setFilter({ method: "session/list" });
    t.store.getState().select({ key: "s1", seq: 2 });
    t.store.getState().setExpanded("s1", true);
    // a new tap takes over while following, and the filter set on the old trace goes with it
    t.pump.push({ kind: "hub", message: { t: "events", events: events("b", sc, 10) } });
    t.runFrames();
    let s = t.store.getState();
    expect(s.traceId).toBe("b");
    expect(s.filter).toEqual(NO_FILTER);
    expect(s.selected).toBeUndefined();
    expect(s.expanded.size).toBe(0);
    expect(s.view.submissions).toHaveLength(1);
    // picking turns following off; a filter set now survives new taps
    s.selectTrace("a");
    s = t.store.getState();
    expect(s.followNewest).toBe(false);
    s.setFilter({ text: "hi" });
    t.pump.push({ kind: "hub", message: { t: "events", events: events("c", sc, 20) } });
    t.runFrames();
    s = t.store.getState();
    expect(s.traceId).toBe("a");
    expect(s.filter.text).toBe("hi");
    // turning it on again jumps to the newest live trace
    s.setFollowNewest(true);
    s = t.store.getState();
    expect(s).toMatchObject({ followNewest: true, traceId: "c", filter: NO_FILTER });
    expect(s.view).toBe(t.catalog.get("c")!.view);
  });

  it("keeps the demo's trace on screen while it plays a scenario, whatever tap attaches", () => {
    const t = setup();
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K");
    const demo = (traceId: string | null, playing: boolean): DemoStatus => ({
      v: 1,
      state: "ready",
      mode: "correct",
      tapPid: 1,
      agentPid: 2,
      traceId,
      client: { state: "connected", conn: 1, sessionId: "s" },
      submissions: [],
      deploys: 0,
      log: [],
      scenario: playing
        ? {
            id: "lost-response",
            title: "Lost response, then a keyed retry",
            step: 1,
            steps: 4,
            caption: "",
            rfd: "",
            phase: "waiting",
            stepDelayMs: null,
          }
        : null,
    });
    t.pump.push({ kind: "hub", message: { t: "events", events: events("demo", sc, 1) } });
    t.pump.push({ kind: "hub", message: { t: "demo-status", status: demo("demo", true) } });
    t.pump.push({ kind: "hub", message: { t: "events", events: events("other", sc, 10) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("demo");
    t.pump.push({ kind: "hub", message: { t: "events", events: events("third", sc, 20) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("demo");
    // Play again: the demo restarts its tap; until the new one is known the view stays put
    t.pump.push({
      kind: "hub",
      message: { t: "demo-status", status: { ...demo(null, true), state: "starting" } },
    });
    t.pump.push({ kind: "hub", message: { t: "events", events: events("fourth", sc, 30) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("demo");
    t.pump.push({ kind: "hub", message: { t: "events", events: events("demo-2", sc, 40) } });
    t.pump.push({ kind: "hub", message: { t: "demo-status", status: demo("demo-2", true) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("demo-2");
    // once no scenario is on screen, the newest live tap is followed again
    t.pump.push({ kind: "hub", message: { t: "demo-status", status: demo("demo", false) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("demo-2");
    t.pump.push({ kind: "hub", message: { t: "events", events: events("fifth", sc, 50) } });
    t.runFrames();
    expect(t.store.getState().traceId).toBe("fifth");
  });

  it("holds events while paused and applies them on resume", () => {
    const t = setup();
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K");
    t.store.getState().setPaused(true);
    t.pump.push({ kind: "hub", message: { t: "events", events: events("a", sc, 1) } });
    t.runFrames();
    expect(t.store.getState().held).toBe(3);
    expect(t.store.getState().view.submissions).toHaveLength(0);
    t.store.getState().setPaused(false);
    t.runFrames();
    expect(t.store.getState().held).toBe(0);
    expect(t.store.getState().view.submissions).toHaveLength(1);
  });
});

/** A session with `n` numbered requests: 1 + n records. */
function requests(n: number): TraceScript {
  const sc = new TraceScript().open(1);
  for (let i = 1; i <= n; i++) sc.request(1, "client->agent", i, "session/list", { cursor: `c${i}` });
  return sc;
}

/** A trace file holding `sc`'s header and its first `count` records. */
function fileOf(sc: TraceScript, count: number): string {
  const part = new TraceScript();
  part.records.push(...sc.records.slice(0, count));
  return part.jsonl().replace(/^.*\n/, `${JSON.stringify(sc.header())}\n`);
}

function records(traceId: string, sc: TraceScript, from: number, to: number, hubSeq: number): HubEvent[] {
  return sc.records
    .slice(from, to)
    .map((record, i) => ({ seq: hubSeq + i, kind: "record" as const, traceId, record }));
}

describe("the feed pump after a hub gap", () => {
  it("rebuilds every trace the gap can have touched from the hub's files, applying live events once", async () => {
    const t = setup();
    const sc = requests(20);
    const done = requests(3);
    t.files.files.set("t0", done.jsonl());
    t.files.files.set("t1", fileOf(sc, 18));
    t.files.live.set("t1", true);
    t.pump.push({ kind: "hub", message: { t: "events", events: events("t1", new TraceScript(), 1) } });
    t.pump.push({ kind: "hub", message: { t: "events", events: records("t1", sc, 0, 3, 2) } });
    t.runFrames();
    expect(t.store.getState().view.records).toBe(3);

    // Events 5..14 left the ring; the next batch starts at 15 with the tap's records 13..16.
    t.pump.push({ kind: "hub", message: { t: "gap", after: 4, oldestSeq: 15, traceIds: ["t0", "t1"] } });
    t.pump.push({ kind: "hub", message: { t: "events", events: records("t1", sc, 12, 16, 15) } });
    t.runFrames();
    expect(t.store.getState().notice?.text).toBe(
      "Missed 10 events; reloading 2 traces from the hub's files…",
    );
    expect(t.store.getState().gaps).toBe(1);
    expect(t.store.getState().view.records).toBe(7);

    await t.files.release(); // t0's file
    // Live events keep coming while t1's file is read: two the file has too, one it lacks.
    t.pump.push({ kind: "hub", message: { t: "events", events: records("t1", sc, 16, 19, 19) } });
    t.runFrames();
    await t.files.release(); // t1's file
    await t.nextFrame();

    const s = t.store.getState();
    expect(t.files.reads).toEqual(["t0", "t1"]);
    expect(s.notice).toEqual({
      tone: "info",
      text: "Reloaded 2 traces from the hub's files after missing 10 events",
    });
    expect(s.gaps).toBe(0);
    expect(t.catalog.get("t1")!.records.map((r) => r.seq)).toEqual(sc.records.slice(0, 19).map((r) => r.seq));
    expect(s.view.records).toBe(19);
    expect(s.view.requests).toHaveLength(18);
    expect(s.traces.map((e) => [e.id, e.attached, e.records])).toEqual([
      ["t0", false, done.records.length],
      ["t1", true, 19],
    ]);

    // After the swap live records go to the rebuilt session, once.
    t.pump.push({ kind: "hub", message: { t: "events", events: records("t1", sc, 18, 21, 22) } });
    t.runFrames();
    expect(t.catalog.get("t1")!.records.map((r) => r.seq)).toEqual(sc.records.map((r) => r.seq));
    expect(t.store.getState().view.records).toBe(sc.records.length);
  });

  it("reads a file again while it ends before the first live record, the hub's write being late", async () => {
    const t = setup();
    const sc = requests(12);
    t.files.files.set("t1", fileOf(sc, 4));
    t.pump.push({ kind: "hub", message: { t: "gap", after: 0, oldestSeq: 20, traceIds: ["t1"] } });
    t.pump.push({ kind: "hub", message: { t: "events", events: records("t1", sc, 8, 13, 20) } });
    t.runFrames();
    await t.files.release();
    t.files.files.set("t1", fileOf(sc, 10));
    await t.files.release();
    await t.nextFrame();
    expect(t.files.reads).toEqual(["t1", "t1"]);
    expect(t.catalog.get("t1")!.records.map((r) => r.seq)).toEqual(sc.records.map((r) => r.seq));
    expect(t.store.getState().gaps).toBe(0);
  });

  it("says so when a reload fails, keeps the gap counted and the records it had", async () => {
    const t = setup();
    const sc = requests(5);
    t.pump.push({ kind: "hub", message: { t: "gap", after: 0, oldestSeq: 3, traceIds: ["gone"] } });
    t.pump.push({ kind: "hub", message: { t: "events", events: records("gone", sc, 2, 6, 3) } });
    t.runFrames();
    await t.files.release();
    await t.nextFrame();
    const s = t.store.getState();
    expect(s.notice).toEqual({
      tone: "error",
      text: "Missed 2 events. Could not reload 1 trace from the hub's files (gone: no such trace).",
    });
    expect(s.gaps).toBe(1);
    expect(s.view.records).toBe(4);
  });

  it("holds a gap while paused, like events, and reloads on resume", async () => {
    const t = setup();
    const sc = requests(3);
    t.files.files.set("t1", sc.jsonl());
    t.store.getState().setPaused(true);
    t.pump.push({ kind: "hub", message: { t: "gap", after: 0, oldestSeq: 9, traceIds: ["t1"] } });
    t.runFrames();
    expect(t.files.reads).toEqual([]);
    expect(t.store.getState().gaps).toBe(0);
    t.store.getState().setPaused(false);
    t.runFrames();
    expect(t.store.getState().gaps).toBe(1);
    await t.files.release();
    await t.nextFrame();
    expect(t.store.getState().traceId).toBe("t1");
    expect(t.store.getState().view.records).toBe(sc.records.length);
    expect(t.store.getState().gaps).toBe(0);
  });
});

describe("the feed pump with a frame budget", () => {
  it("holds live events after a slow frame, flushes a fault status at once, and shows every record once the rest is over", () => {
    let now = 0;
    const frames: Array<() => void> = [];
    const afterFrames: Array<() => void> = [];
    const timers: Array<() => void> = [];
    const inspector = createInspector(
      new HubFiles().bridge,
      { theme: "dark", largeText: false },
      (cb) => frames.push(cb),
      { now: () => now, afterFrame: (cb) => afterFrames.push(cb), later: (cb) => timers.push(cb) },
    );
    /** Runs the queued frame as one that (with its render) took `cost` ms. */
    const frame = (cost: number) => {
      frames.shift()!();
      now += cost;
      for (const cb of afterFrames.splice(0)) cb();
    };
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K").inserted(1, 1, "m1");
    const all = events("a", sc, 1);
    inspector.pump.push({ kind: "hub", message: { t: "events", events: all.slice(0, 2) } });
    frame(200);
    expect(inspector.store.getState().view.records).toBe(1);
    // Resting after the slow frame: more events wait, with no frame asked for.
    inspector.pump.push({ kind: "hub", message: { t: "events", events: all.slice(2) } });
    expect(frames).toHaveLength(0);
    // A fault status does not wait, and takes the waiting events with it, in order.
    const rules = { t: "fault-rules", rules: [], faults: [], recent: [] } as const;
    inspector.pump.push({ kind: "hub", message: rules });
    expect(frames).toHaveLength(1);
    frame(5);
    expect(inspector.store.getState().view.records).toBe(sc.records.length);
    // The rest's timer then finds nothing left to flush.
    for (const cb of timers.splice(0)) cb();
    expect(frames).toHaveLength(0);
  });
});
