import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import { TimelineEvents } from "./timeline-events.js";

/** A stdio session: the agent is killed mid-turn, restarted, and the keyed prompt is retried. */
const killAndRetry = () =>
  new TraceScript()
    .spawn(4242, ["demo-agent"])
    .open(1)
    .prompt(1, 1, "sess-A", "deploy it", "KEY-1")
    .record({ type: "fault", action: "kill-agent", ruleId: "r1", conn: 1, frameSeq: 3 })
    .exit(4242, null, "SIGKILL")
    .close(1, "agent exited")
    .spawn(4343, ["demo-agent"])
    .open(2)
    .prompt(2, 1, "sess-A", "deploy it", "KEY-1")
    .inserted(2, 1, "m1");

function events(sc: TraceScript): TimelineEvents {
  const e = new TimelineEvents();
  for (const r of sc.records) e.ingest(r);
  return e;
}

describe("timeline events", () => {
  it("reads a kill, an exit, a close and a restart as event rows in trace order", () => {
    const e = events(killAndRetry());
    expect(e.list.map((x) => `${x.seq} ${x.kind}: ${x.words}`)).toEqual([
      "1 agent-spawn: agent started, pid 4242",
      "2 conn-open: connection #1 opened (stdio)",
      "4 fault-applied: fault applied: kill-agent on frame #3",
      "5 agent-exit: agent 4242 killed by SIGKILL",
      "6 conn-close: connection #1 closed: agent exited",
      "7 agent-restart: agent restarted as pid 4343 (was pid 4242)",
      "8 conn-open: connection #2 opened (stdio)",
    ]);
    expect(e.list.find((x) => x.kind === "agent-exit")).toMatchObject({ pid: 4242, tone: "error" });
  });

  it("names the pid each attempt went to, and none between an exit and the next start", () => {
    const sc = killAndRetry();
    const e = events(sc);
    const a = new Analyzer();
    a.ingestHeader(sc.header());
    for (const r of sc.records) a.ingest(r);
    const attempts = a.model().submissions[0]?.attempts ?? [];
    expect(attempts.map((x) => e.pidAt(x.conn, x.requestSeq))).toEqual([4242, 4343]);
    expect(e.pidAt(1, 6)).toBeNull();
  });

  it("keeps per-connection agents apart and words exit codes, missing reasons, delays and retries", () => {
    const sc = new TraceScript()
      .open(1, "ws")
      .record({ type: "agent-spawn", pid: 10, command: ["a"], conn: 1 })
      .open(2, "ws")
      .record({ type: "agent-spawn", pid: 11, command: ["a"], conn: 2 })
      .record({ type: "fault", action: "delay", conn: 1, frameSeq: 3 })
      .record({ type: "fault", action: "delay", conn: 1, frameSeq: 3, fate: "released", heldMs: 300.4 })
      .record({
        type: "fault",
        action: "delay",
        conn: 2,
        frameSeq: 4,
        fate: "undelivered",
        detail: "connection closed",
      })
      .record({ type: "fault", action: "lose-and-retry", conn: 1 })
      .record({ type: "agent-exit", pid: 11, code: 3, signal: null, conn: 2 })
      .record({ type: "conn-close", conn: 2 } as never)
      .record({ type: "agent-exit", pid: 10, code: 0, signal: null, conn: 1 })
      .record({ type: "note", level: "info", text: "attached to the hub" })
      .record({ type: "note", level: "warn", text: "trace gap" });
    const e = events(sc);
    expect(e.list.map((x) => x.words)).toEqual([
      "connection #1 opened (ws)",
      "agent started, pid 10",
      "connection #2 opened (ws)",
      "agent started, pid 11",
      "fault applied: delay on frame #3",
      "fault released: delay let frame #3 through after 300 ms",
      "held frame #4 never delivered (connection closed)",
      "inspector retry: lose-and-retry",
      "agent 11 exited with code 3",
      "connection #2 closed (no reason recorded)",
      "agent 10 exited (code 0)",
      "tap note (warn): trace gap",
    ]);
    expect(e.list.map((x) => x.kind).slice(4, 8)).toEqual([
      "fault-applied",
      "fault-released",
      "fault-undelivered",
      "inspector-retry",
    ]);
    // Two agents at once, one per connection: each connection's requests went to its own.
    expect([e.pidAt(1, 5), e.pidAt(2, 5)]).toEqual([10, 11]);
    expect(e.pidAt(2, 12)).toBeNull();
    expect(e.at(9)?.words).toBe("agent 11 exited with code 3");
    expect(e.at(99)).toBeUndefined();
  });

  it("keeps the same list until an event is added, and skips frames and stderr", () => {
    const e = new TimelineEvents();
    const sc = new TraceScript().open(1).stderr(1, "hello").prompt(1, 1, "s", "x", "K");
    e.ingest(sc.records[0]!);
    const first = e.list;
    expect(e.ingest(sc.records[1]!)).toBeNull();
    expect(e.ingest(sc.records[2]!)).toBeNull();
    expect(e.list).toBe(first);
  });
});
