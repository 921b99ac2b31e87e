import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { type FilterPatch, filterOf } from "../filter/timeline-filter.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import { displayRows, rowOfKey, type TimelineRow, topRows } from "./timeline-rows.js";
import { eventsOf } from "./trace-events.js";

const session = scriptedTrace;

const trace = () =>
  new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .prompt(1, 1, "sess-A", "write a poem", "KEY-alpha")
    .raw(1, "agent->client", "not json at all")
    .inserted(1, 1, "m1")
    .prompt(1, 2, "sess-B", "fix the bug", "KEY-beta")
    .error(1, 2, -32602, "bad")
    .request(1, "agent->client", 9, "fs/read_text_file", { sessionId: "sess-B", path: "/x" });

describe("timeline rows", () => {
  it("lists submissions, other requests and malformed frames in order of their first frame", () => {
    const s = session(trace());
    const rows = topRows(s.view);
    expect(rows.map((r) => `${r.kind}@${r.seq}`)).toEqual([
      "request@2",
      "submission@4",
      "malformed@5",
      "submission@7",
      "request@9",
    ]);
    // Unchanged rows keep their identity across rebuilds (no re-render for them).
    expect(topRows(s.view)[1]).toBe(rows[1]);
  });

  it("expands a submission into attempts and an attempt into its frames", () => {
    const s = session(trace());
    const tops = topRows(s.view);
    const sub = tops[1]!;
    const one = displayRows(tops, undefined, new Set([sub.key]), () => undefined);
    expect(one.map((r) => `${r.kind}:${r.depth}`).slice(1, 3)).toEqual(["submission:0", "attempt:1"]);
    const attemptKey = one[2]!.key;
    const two = displayRows(tops, undefined, new Set([sub.key, attemptKey]), (seq) => s.recordBySeq(seq));
    expect(
      two.filter((r) => r.kind === "frame").map((r) => (r.kind === "frame" ? `${r.role}@${r.seq}` : "")),
    ).toEqual(["request@4", "response@6"]);
    expect(two.filter((r) => r.kind === "frame").at(-1)).toMatchObject({
      conn: 1,
      dir: "agent->client",
      preview: expect.stringContaining("m1"),
    });
  });

  it("filters by method, session, key, outcome, direction, verdict and free text over frame bytes", () => {
    const sc = trace();
    const s = session(sc);
    const tops = topRows(s.view);
    const rawOf = (seq: number) => s.recordBySeq(seq);
    const keys = (f: FilterPatch) =>
      displayRows(tops, filterOf(f), new Set(), rawOf).map((r) => `${r.kind}@${r.seq}`);
    expect(keys({ method: "session/prompt" })).toEqual(["submission@4", "submission@7"]);
    expect(keys({ session: "sess-B" })).toEqual(["submission@7", "request@9"]);
    expect(keys({ key: "alpha" })).toEqual(["submission@4"]);
    expect(keys({ outcome: "error" })).toEqual(["submission@7"]);
    expect(keys({ direction: "agent->client" })).toEqual(["malformed@5", "request@9"]);
    expect(keys({ verdict: "single" })).toEqual(["submission@4", "submission@7"]);
    expect(keys({ text: "POEM" })).toEqual(["submission@4"]);
    expect(keys({ text: "/x" })).toEqual(["request@9"]);
    expect(keys({ text: "m1", method: "initialize" })).toEqual([]);
  });
});

describe("event rows", () => {
  /** The agent is killed mid-turn; the keyed prompt is retried on a new connection to a new agent. */
  const killed = () =>
    new TraceScript()
      .spawn(4242)
      .open(1)
      .prompt(1, 1, "sess-A", "deploy it", "KEY-1")
      .record({ type: "fault", action: "kill-agent", conn: 1, frameSeq: 3 })
      .exit(4242, null, "SIGKILL")
      .close(1, "agent exited")
      .spawn(4343)
      .open(2)
      .prompt(2, 1, "sess-A", "deploy it", "KEY-1")
      .inserted(2, 1, "m1")
      .request(2, "client->agent", 2, "session/list", {})
      .result(2, "agent->client", 2, { sessions: [] });

  function shown(sc: TraceScript) {
    const s = session(sc);
    const events = eventsOf(s).list;
    return { s, events, tops: topRows(s.view) };
  }
  const label = (r: TimelineRow) =>
    r.kind === "event"
      ? `${r.depth}:${r.event.kind}`
      : `${r.depth}:${r.kind}${r.kind === "attempt" ? r.number : ""}`;

  it("puts the events among the rows in trace order, and between the attempts of an expanded submission", () => {
    const { s, events, tops } = shown(killed());
    const collapsed = displayRows(tops, undefined, new Set(), () => undefined, { events });
    expect(collapsed.map(label)).toEqual([
      "0:agent-spawn",
      "0:conn-open",
      "0:submission",
      "0:fault-applied",
      "0:agent-exit",
      "0:conn-close",
      "0:agent-restart",
      "0:conn-open",
      "0:request",
    ]);
    const sub = tops[0]!.key;
    const open = displayRows(tops, undefined, new Set([sub]), (seq) => s.recordBySeq(seq), { events });
    expect(open.map(label)).toEqual([
      "0:agent-spawn",
      "0:conn-open",
      "0:submission",
      "1:attempt1",
      "1:fault-applied",
      "1:agent-exit",
      "1:conn-close",
      "1:agent-restart",
      "1:conn-open",
      "1:attempt2",
      "0:request",
    ]);
    // An event row keeps its key wherever it shows, so a selection survives expanding.
    expect(open.find((r) => r.kind === "event" && r.event.kind === "agent-exit")?.key).toBe(
      collapsed.find((r) => r.kind === "event" && r.event.kind === "agent-exit")?.key,
    );
  });

  it("an opened submission shows the kill, exit and reconnect between its attempts with Lifecycle events off", () => {
    const { s, events, tops } = shown(killed());
    const sub = tops[0]!.key;
    const open = displayRows(tops, undefined, new Set([sub]), (seq) => s.recordBySeq(seq), {
      groupEvents: events,
    });
    expect(open.map(label)).toEqual([
      "0:submission",
      "1:attempt1",
      "1:fault-applied",
      "1:agent-exit",
      "1:conn-close",
      "1:agent-restart",
      "1:conn-open",
      "1:attempt2",
      "0:request",
    ]);
    // closed, nothing of the group's story is shown at the top with the toggle off
    const closed = displayRows(tops, undefined, new Set(), () => undefined, { groupEvents: events });
    expect(closed.map(label)).toEqual(["0:submission", "0:request"]);
  });

  it("a resume and a cancel sent between two attempts show among them in true order, once", () => {
    const sc = new TraceScript()
      .open(1)
      .prompt(1, 1, "sess-A", "deploy it", "KEY-1")
      .request(1, "client->agent", 2, "$/cancel_request", { requestId: 1 })
      .close(1, "client closed")
      .open(2)
      .request(2, "client->agent", 1, "session/resume", { sessionId: "sess-A" })
      .result(2, "agent->client", 1, {})
      .request(2, "client->agent", 2, "session/list", {})
      .result(2, "agent->client", 2, { sessions: [] })
      .prompt(2, 3, "sess-A", "deploy it", "KEY-1")
      .inserted(2, 3, "m1");
    const { s, events, tops } = shown(sc);
    const sub = tops.find((r) => r.kind === "submission")!.key;
    const open = displayRows(tops, undefined, new Set([sub]), (seq) => s.recordBySeq(seq), {
      groupEvents: events,
    });
    const words = (r: TimelineRow) =>
      r.kind === "request"
        ? `${r.depth}:${r.row.method}`
        : r.kind === "event"
          ? `${r.depth}:${r.event.kind}`
          : label(r);
    expect(open.map(words)).toEqual([
      "0:submission",
      "1:attempt1",
      "1:$/cancel_request",
      "1:conn-close",
      "1:conn-open",
      "1:session/resume",
      "1:attempt2",
      "0:session/list",
    ]);
    // the request rows keep their keys (a selection survives opening the group)
    const resume = open.find((r) => r.kind === "request" && r.row.method === "session/resume");
    expect(tops.some((r) => r.key === resume?.key)).toBe(true);
  });

  it("hides top-level events while filtering or sorting by a column, and reverses them with time", () => {
    const { events, tops } = shown(killed());
    const filtered = displayRows(tops, filterOf({ method: "session/list" }), new Set(), () => undefined, {
      events,
    });
    expect(filtered.map(label)).toEqual(["0:request"]);
    const byValue = displayRows(tops, undefined, new Set(), () => undefined, {
      events,
      order: { by: "value", desc: false, value: (r) => (r.kind === "request" ? 1 : 2) },
    });
    expect(byValue.map(label)).toEqual(["0:request", "0:submission"]);
    const newestFirst = displayRows(tops, undefined, new Set(), () => undefined, {
      events,
      order: { by: "time", desc: true },
    });
    expect(newestFirst.map(label)[0]).toBe("0:request");
    expect(newestFirst.map(label).at(-1)).toBe("0:agent-spawn");
    // No events given (the toggle is off): only the rows.
    expect(displayRows(tops, undefined, new Set(), () => undefined).map(label)).toEqual([
      "0:submission",
      "0:request",
    ]);
  });

  it("sorts by a value with nulls last in either direction, stable among equals", () => {
    const { tops } = shown(trace());
    const ids = (desc: boolean) =>
      displayRows(tops, undefined, new Set(), () => undefined, {
        order: {
          by: "value",
          desc,
          value: (r) => (r.kind === "malformed" ? null : r.kind === "request" ? "b" : "a"),
        },
      }).map((r) => `${r.kind}@${r.seq}`);
    expect(ids(false)).toEqual(["submission@4", "submission@7", "request@2", "request@9", "malformed@5"]);
    expect(ids(true)).toEqual(["request@2", "request@9", "submission@4", "submission@7", "malformed@5"]);
  });

  it("finds the row of a selection key, events and attempts included", () => {
    const { s, events, tops } = shown(killed());
    const at = (seq: number) => eventsOf(s).at(seq);
    const recordOf = (seq: number) => s.recordBySeq(seq);
    const sub = tops[0]!;
    expect(rowOfKey(sub.key, s.view, at, recordOf)).toBe(sub);
    const attempt = rowOfKey(`${sub.key}.a1`, s.view, at, recordOf);
    expect(attempt).toMatchObject({ kind: "attempt", number: 2, attempt: { conn: 2 } });
    const exit = events.find((e) => e.kind === "agent-exit")!;
    expect(rowOfKey(`e${exit.seq}`, s.view, at, recordOf)).toMatchObject({ kind: "event", event: exit });
    expect(rowOfKey(`${sub.key}.a0.f3`, s.view, at, recordOf)).toMatchObject({
      kind: "frame",
      role: "request",
    });
    expect(rowOfKey("s999", s.view, at, recordOf)).toBeUndefined();
    expect(rowOfKey("rec3", s.view, at, recordOf)).toBeUndefined();
  });
});
