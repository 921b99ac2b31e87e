import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { displayRows, topRows } from "../timeline/timeline-rows.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import { matchRecords, recordPasses } from "./record-filter.js";
import { filterOf } from "./timeline-filter.js";

const session = scriptedTrace;

// seq: 1 conn-open, 2-3 initialize, 4 prompt A, 5 update, 6 answer A, 7 prompt B, 8 error B,
// 9 fs/read_text_file (agent->client), 10 conn-close
const trace = () =>
  new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .result(1, "agent->client", 0, { protocolVersion: 2 })
    .prompt(1, 1, "sess-A", "write a poem", "KEY-alpha")
    .notify(1, "agent->client", "session/update", { sessionId: "sess-A", update: { sessionUpdate: "x" } })
    .inserted(1, 1, "m1")
    .prompt(1, 2, "sess-B", "fix the bug", "KEY-beta")
    .error(1, 2, -32602, "bad")
    .request(1, "agent->client", 9, "fs/read_text_file", { sessionId: "sess-B", path: "/x" })
    .close(1, "client closed");

const seqs = (q: string) => {
  const s = session(trace());
  const m = matchRecords(s.records, s.view, filterOf({ text: q }));
  return s.records.filter((r) => recordPasses(m, r.seq)).map((r) => r.seq);
};

describe("the shared filter on records", () => {
  it("passes every record for an empty query", () => {
    const s = session(trace());
    const m = matchRecords(s.records, s.view, filterOf({}));
    expect(m.active).toBe(false);
    expect(m.matched).toBe(s.records.length);
    expect(seqs("")).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("shows the frames of exactly the Timeline rows a field-only query shows", () => {
    const s = session(trace());
    const tops = topRows(s.view);
    for (const q of [
      "method:session/prompt",
      "method:session/prompt -verdict:single",
      "key:alpha",
      "outcome:error",
      "verdict:single",
      "-verdict:single",
      "session:sess-B",
    ]) {
      const f = filterOf({ text: q });
      const rows = displayRows(tops, f, new Set(), (seq) => s.recordBySeq(seq));
      const expected = new Set(
        rows.flatMap((r) => {
          if (r.kind === "submission") return r.row.attempts.flatMap((a) => a.frameSeqs);
          if (r.kind === "request") return [r.row.requestSeq, r.row.responseSeq];
          if (r.kind === "malformed") return [r.row.seq];
          return [];
        }),
      );
      const m = matchRecords(s.records, s.view, f);
      const framesShown = s.records
        .filter((r) => r.type === "frame" && recordPasses(m, r.seq))
        .map((r) => r.seq);
      // frames outside every row (the notification) are judged by their own JSON
      expect(
        framesShown.filter((seq) => seq !== 5),
        q,
      ).toEqual([...expected].filter((x) => x !== null).sort((a, b) => a! - b!));
    }
  });

  it("judges a notification by its own method and sessionId, and lifecycle records by their connection", () => {
    expect(seqs("method:session/update")).toEqual([5]);
    expect(seqs("session:sess-A")).toEqual([4, 5, 6]);
    expect(seqs("conn:1 -method:*")).toEqual([1, 10]);
    expect(seqs("direction:agent")).toEqual([3, 5, 6, 8, 9]);
    expect(seqs("-direction:agent")).toEqual([1, 2, 4, 7, 10]);
    expect(seqs("origin:peer")).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("searches a frame's own bytes and other records' descriptions, ignoring case", () => {
    expect(seqs("POEM")).toEqual([4]);
    expect(seqs('"client closed"')).toEqual([10]);
    expect(seqs("m1 -session/update")).toEqual([6]);
    expect(seqs("verdit:single")).toEqual([]);
  });
});
