import { describe, expect, it } from "vitest";
import { TraceScript } from "../../shared/analyzer/trace-script.js";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { createInspector } from "./inspector-store.js";

const bridge = { shell: "browser" } as InspectorBridge;

function setup() {
  const frames: Array<() => void> = [];
  const inspector = createInspector(bridge, { theme: "dark", largeText: false }, (cb) => frames.push(cb));
  const runFrames = () => {
    while (frames.length > 0) frames.shift()!();
  };
  let sets = 0;
  inspector.store.subscribe(() => sets++);
  return { ...inspector, runFrames, sets: () => sets };
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
    t.pump.push({ kind: "hub", message: { t: "fault-rules", rules: [] } });
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
