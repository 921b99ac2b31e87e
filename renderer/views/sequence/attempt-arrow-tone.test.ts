/** Issue 30 item 3 in the Sequence view: a prompt answer's arrow takes its attempt's `tone` (the Agent and the RFD). */
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { type ArrowRow, layoutSequence } from "./sequence-layout.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";

/** A keyed retry after a dropped answer; the Agent answers the retry with `second`. The answers' arrows, in order. */
function answerArrows(second: string): ArrowRow[] {
  const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY);
  t.inserted(1, 3, "m1", { dropped: true });
  t.prompt(1, 4, S, "deploy it", KEY).inserted(1, 4, second);
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return layoutSequence(t.records, a.model())
    .rows.map((r) => r.item)
    .filter((i): i is ArrowRow => i.kind === "arrow" && i.arrow === "response");
}

describe("prompt answer arrows", () => {
  it("correct story: the dropped answer and the deduplicated one are both green", () => {
    expect(answerArrows("m1").map((a) => a.tone)).toEqual(["ok", "ok"]);
  });

  it("naive story: the answer that carries the duplicate insert is red", () => {
    expect(answerArrows("m2").map((a) => a.tone)).toEqual(["ok", "error"]);
  });
});
