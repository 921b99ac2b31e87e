import { describe, expect, it } from "vitest";
import { TraceScript } from "../../shared/analyzer/trace-script.js";
import { LoadedTrace } from "../traces/loaded-trace.js";
import { type FilterPatch, filterOf } from "./timeline-filter.js";
import { displayRows, topRows } from "./timeline-rows.js";

function session(sc: TraceScript): LoadedTrace {
  const s = new LoadedTrace("t", "t", "imported");
  s.setHeader(sc.header());
  for (const r of sc.records) s.ingest(r);
  s.publish();
  return s;
}

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
