import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import type { HubEvent } from "../../../shared/hub/hub-event.js";
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

  it("lists each trace with its name, start, status, record count and verdicts, newest first", () => {
    const catalog = new TraceCatalog();
    const named = new TraceScript().open(1).spawn(4242).prompt(1, 1, "s1", "hi", "K").inserted(1, 1, "m1");
    const header = {
      ...named.header(),
      name: "QA repro #42",
      agent: { command: ["/usr/bin/node", "/opt/x/dist/cli.js", "demo-agent"], cwd: "/r" },
    };
    catalog.applyHubEvents([
      { seq: 1, kind: "tap-attached", traceId: "t1", tapId: "tap-0001", header, at: 0 },
      ...named.records.map((record, i) => ({ seq: 2 + i, kind: "record" as const, traceId: "t1", record })),
    ]);
    // a tap of a version before names: the picker derives one from its command and folder
    const old = new TraceScript().open(1).spawn(7).exit(7, 0).close(1);
    const oldHeader = {
      ...old.header(),
      agent: { command: ["npx", "@zed-industries/claude-code-acp"], cwd: "/w/site" },
    };
    catalog.applyHubEvents([
      { seq: 10, kind: "tap-attached", traceId: "t2", tapId: "tap-0002", header: oldHeader, at: 0 },
      ...old.records.map((record, i) => ({ seq: 11 + i, kind: "record" as const, traceId: "t2", record })),
      { seq: 20, kind: "tap-detached", traceId: "t2", reason: "closed (1000)", at: 0 },
    ]);
    catalog.addImported("saved.jsonl", header);
    for (const s of catalog.all()) s.publish();
    const [file, ended, live] = catalog.entries();
    expect(live).toMatchObject({
      id: "t1",
      label: "QA repro #42",
      status: "running",
      startedAt: header.startedAt,
      agent: "agent pid 4242",
      records: 4,
      verdicts: { ok: 1, violation: 0, clientIssue: 0 },
      command: header.agent.command,
      cwd: "/r",
    });
    expect(ended).toMatchObject({
      label: "claude-code-acp @ site",
      status: "ended",
      agent: "agent exited (code 0)",
    });
    expect(file).toMatchObject({ label: "saved.jsonl", detail: "QA repro #42", status: "file" });
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
    // the picker still counts the whole trace
    expect(catalog.entries()[0]?.records).toBe(5);
  });
});
