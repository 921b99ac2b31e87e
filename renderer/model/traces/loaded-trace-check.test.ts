/** The UI's ingest keeps what is not a valid record flagged (Records tab) and names repeated or decreasing seqs (banner). */
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { InvalidRecord } from "../../../shared/trace/record-check.js";
import { LoadedTrace } from "./loaded-trace.js";
import { decodeLines, splitTraceText } from "./trace-file.js";

const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const script = new TraceScript().open(1).prompt(1, 1, "s1", "hi", KEY).inserted(1, 1, "m1");

function imported(lines: string[]): LoadedTrace {
  const split = splitTraceText([JSON.stringify(script.header()), ...lines].join("\n"));
  if (!split.ok) throw new Error(split.problem);
  const s = new LoadedTrace("import-1", "t.jsonl", "imported");
  s.setHeader(split.header);
  for (const e of decodeLines(split.lines, 0, split.lines.length).entries) s.ingest(e);
  s.publish();
  return s;
}

describe("LoadedTrace.ingest checks each record", () => {
  it("keeps a record whose raw is not a string flagged with the field, instead of throwing or dropping it", () => {
    const [open, prompt, answer] = script.records.map((r) => JSON.stringify(r));
    const bad = JSON.stringify({ ...JSON.parse(prompt as string), raw: { not: "a string" } });
    const s = imported([open as string, bad, answer as string, "garbage"]);
    expect(s.records.map((r) => r.seq)).toEqual([1, 3]);
    expect(s.flagged.map((e) => e.faults)).toEqual([
      [{ field: "raw", reason: "must be a string, got object" }],
      [{ field: "line", reason: expect.stringContaining("line 5: not JSON") }],
    ]);
    expect(s.view.flagged).toBe(2);
    expect(s.view.seqIssues).toBe(0);
    // the analyzer saw the answer alone: an unmatched response, no invented prompt
    expect(s.view.submissions).toHaveLength(0);
    expect(s.timelineModel().invalid).toHaveLength(2);
  });

  it("flags an import's repeated and decreasing seqs, names them for the banner, and invents no pending attempt", () => {
    const [open, prompt, answer] = script.records.map((r) => JSON.stringify(r)) as string[];
    const s = imported([open, prompt, prompt, answer, prompt] as string[]);
    expect(s.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(s.view.seqIssues).toBe(2);
    expect(s.view.seqIssueSeqs).toEqual([2, 2]);
    expect(s.flagged.map((e) => e.faults[0]?.reason)).toEqual([
      "repeats the seq before it: left out of the analysis",
      "goes back (after seq 3): left out of the analysis",
    ]);
    const [sub] = s.view.submissions;
    expect(sub?.attempts.map((a) => a.outcome.kind)).toEqual(["inserted"]);
    expect(s.timelineModel().seqIssues).toMatchObject({ repeated: 1, decreasing: 1 });
  });

  it("takes a hub event's record unchecked from the wire and flags it; a live resend is skipped quietly", () => {
    const s = new LoadedTrace("t1", "live", "live");
    expect(s.ingest(script.records[0])).toBe(true);
    expect(s.ingest({ type: "frame", seq: 2, ts: 1, conn: 1, dir: "client->agent", raw: 7 })).toBe(false);
    expect(s.ingest(null)).toBe(false);
    expect(s.ingest(script.records[0])).toBe(false);
    expect(s.flagged).toHaveLength(2);
    expect(s.flagged.every((e) => e instanceof InvalidRecord)).toBe(true);
    expect(s.seqIssues).toBe(0);
  });
});
