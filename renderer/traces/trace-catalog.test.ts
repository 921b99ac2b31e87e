import { describe, expect, it } from "vitest";
import { TraceScript } from "../../shared/analyzer/trace-script.js";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import { TraceCatalog } from "./trace-catalog.js";

function script() {
  return new TraceScript()
    .open(1)
    .prompt(1, 1, "s1", "hello", "K-1")
    .stderr(7, "agent: working")
    .prompt(1, 2, "s1", "hello", "K-1")
    .inserted(1, 2, "m1");
}

function hubEvents(traceId: string, s: TraceScript, startSeq = 1): HubEvent[] {
  return [
    { seq: startSeq, kind: "tap-attached", traceId, tapId: "tap-0001", header: s.header(), at: 0 },
    ...s.records.map((record, i) => ({ seq: startSeq + 1 + i, kind: "record" as const, traceId, record })),
  ];
}

describe("TraceCatalog and LoadedTrace", () => {
  it("routes hub events to their trace, analyzes them, and publishes a view once per call", () => {
    const catalog = new TraceCatalog();
    const touched = catalog.applyHubEvents(hubEvents("t1", script()));
    expect([...touched].map((s) => s.id)).toEqual(["t1"]);
    const s = catalog.get("t1")!;
    expect(s.attached).toBe(true);
    expect(s.publish()).toBe(true);
    expect(s.publish()).toBe(false);
    expect(s.view.submissions).toHaveLength(1);
    expect(s.view.submissions[0]!.attempts).toHaveLength(2);
    expect(s.view.records).toBe(5);
    expect(s.stderr.map((l) => l.text)).toEqual(["agent: working"]);
    expect(s.recordBySeq(4)?.type).toBe("frame");
    expect(s.recordBySeq(99)).toBeUndefined();
  });

  it("keeps row identity for unchanged rows and replaces changed ones", () => {
    const catalog = new TraceCatalog();
    const sc = new TraceScript().open(1).request(1, "client->agent", 1, "session/list", {});
    catalog.applyHubEvents(hubEvents("t1", sc));
    const s = catalog.get("t1")!;
    s.publish();
    const before = s.view;
    sc.prompt(1, 2, "s1", "x", "K");
    catalog.applyHubEvents(
      sc.records.slice(2).map((record, i) => ({ seq: 10 + i, kind: "record", traceId: "t1", record })),
    );
    s.publish();
    expect(s.view.requests).toBe(before.requests);
    expect(s.view.submissions).not.toBe(before.submissions);
    expect(s.view.requests[0]!.sessionId).toBeNull();
  });

  it("skips resent records, counts tap gaps, and picks the newest attached live trace", () => {
    const catalog = new TraceCatalog();
    const sc = script();
    catalog.applyHubEvents(hubEvents("t1", sc));
    catalog.applyHubEvents(hubEvents("t1", sc, 100));
    expect(catalog.get("t1")!.records).toHaveLength(5);
    catalog.applyHubEvents([{ seq: 200, kind: "tap-gap", traceId: "t1", dropped: 3, at: 0 }]);
    expect(catalog.get("t1")!.missing).toBe(3);
    catalog.applyHubEvents(hubEvents("t2", script(), 300));
    catalog.addImported("old.jsonl", sc.header());
    expect(catalog.newestLive()?.id).toBe("t2");
    catalog.applyHubEvents([{ seq: 400, kind: "tap-detached", traceId: "t2", reason: "bye", at: 0 }]);
    expect(catalog.newestLive()?.id).toBe("t1");
    expect(catalog.entries().map((e) => e.id)).toEqual(["import-1", "t2", "t1"]);
  });

  it("clear empties a trace's view and ignores resends of what was cleared", () => {
    const catalog = new TraceCatalog();
    const sc = script();
    catalog.applyHubEvents(hubEvents("t1", sc));
    const s = catalog.get("t1")!;
    s.publish();
    s.clear();
    s.publish();
    expect(s.view.submissions).toEqual([]);
    catalog.applyHubEvents(hubEvents("t1", sc, 50));
    expect(s.records).toHaveLength(0);
  });
});
