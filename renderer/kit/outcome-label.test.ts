/** Issue 30 item 3: an attempt's badge colour is the analyzer's `tone` (the Agent and the RFD), never transport. */
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import type { Submission } from "../../shared/analyzer/timeline-model.js";
import { attemptLabel, transportMark } from "./outcome-label.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";

/** The demo's story: a keyed retry after the first answer was dropped; the Agent answers `second`. */
function story(second: string): Submission {
  const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY);
  t.inserted(1, 3, "m1", { dropped: true });
  t.prompt(1, 4, S, "deploy it", KEY).inserted(1, 4, second);
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model().submissions[0] as Submission;
}

describe("attempt badges", () => {
  it("correct story: the attempt whose answer was dropped is a green ✓ with a neutral 'answer dropped' mark", () => {
    const s = story("m1");
    expect(s.attempts.map((a) => attemptLabel(a).tone)).toEqual(["ok", "ok"]);
    expect(s.attempts.map((a) => transportMark(a))).toEqual(["answer dropped", null]);
  });

  it("naive story: the attempt that inserted the duplicate is a red ✗", () => {
    const s = story("m2");
    expect(s.attempts.map((a) => attemptLabel(a).tone)).toEqual(["ok", "error"]);
  });

  it("an answer lost with the Agent is neutral, neither green nor red, and needs no second mark", () => {
    const t = new TraceScript().spawn(9).open(1).prompt(1, 3, S, "deploy it", KEY).exit(9);
    const a = new Analyzer();
    for (const r of t.records) a.ingest(r);
    const attempt = (a.model().submissions[0] as Submission).attempts[0];
    if (!attempt) throw new Error("no attempt");
    expect(attemptLabel(attempt).tone).toBe("neutral");
    expect(transportMark(attempt)).toBeNull();
  });
});
