import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { parseFilter } from "../../../shared/filter/parse-filter.js";
import { SearchIndex } from "../timeline/search-index.js";
import { topLevelOf, topRows } from "../timeline/timeline-rows.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import {
  filterOf,
  frameSeqsOf,
  isFiltering,
  matchesFilter,
  NO_FILTER,
  patchFilter,
  type RawOf,
  searchTextOf,
} from "./timeline-filter.js";

describe("the store's filter patches", () => {
  it("edits one query text: text replaces it, a field sets its term, NO_FILTER clears it", () => {
    const f = filterOf({ text: "haiku", outcome: "dropped" });
    expect(f.text).toBe("haiku outcome:dropped");
    expect(isFiltering(f)).toBe(true);
    const g = patchFilter(f, { verdict: "single", outcome: "" });
    expect(g.text).toBe("haiku verdict:single");
    // the empty query as a patch (what "Clear filters" passes) clears everything
    const cleared = patchFilter(g, NO_FILTER);
    expect(cleared.text).toBe("");
    expect(isFiltering(cleared)).toBe(false);
    // an unchanged text keeps the same filter object (no re-filtering)
    expect(patchFilter(g, { text: g.text })).toBe(g);
  });

  it("a query of problems only filters nothing but keeps its text to show them", () => {
    const f = filterOf({ text: "method: -" });
    expect(isFiltering(f)).toBe(false);
    expect(f.problems).toHaveLength(2);
  });
});

describe("a row's search text", () => {
  it("lower-cases its parts apart exactly as it would the joined text, whatever the letters", () => {
    // Greek final sigma is the one case mapping that depends on its neighbours.
    const piece = fc.constantFrom("Σ", "ΑΣ", "σ", "İ", "ẞ", "A", "a", " ", "→", "\n", "ǅ", "-");
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(`${a.toLowerCase()}\n${b.toLowerCase()}`).toBe(`${a}\n${b}`.toLowerCase());
      }),
      { numRuns: 1_000 },
    );
  });

  it("is the row's words and its frames' bytes, lower-cased, and the index finds what a plain scan finds", () => {
    const sc = new TraceScript()
      .open(1)
      .prompt(1, 1, "sess-Σ", "Fix the ΤΕΛΟΣ bug", "KEY-1")
      .inserted(1, 1, "Msg-A")
      .request(1, "agent->client", 7, "fs/read_text_file", { sessionId: "sess-Σ", path: "/Src/File-42.ts" })
      .result(1, "client->agent", 7, { content: "ΟΔΟΣ" })
      .raw(1, "agent->client", "not json at all: ΆΣ");
    const s = scriptedTrace(sc);
    const rawOf: RawOf = (seq) => {
      const r = s.recordBySeq(seq);
      return r?.type === "frame" ? r.raw : undefined;
    };
    const tops = topLevelOf(topRows(s.view));
    expect(tops.map((t) => t.kind)).toEqual(["submission", "request", "malformed"]);
    for (const top of tops) {
      const text = searchTextOf(top, rawOf);
      const frames = frameSeqsOf(top).map((q) => rawOf(q) ?? "");
      // the frames' bytes are the last part, lower-cased as a whole text would be
      if (frames.length > 0) expect(text[1]).toBe(frames.join("\n").toLowerCase());
      else expect(text).toHaveLength(1);
      expect(text.join("\n")).toBe(text.join("\n").toLowerCase());
    }
    const index = new SearchIndex(tops);
    for (const q of [
      "τελος",
      "ΤΈΛΟΣ",
      "/src/file-42",
      "οδος",
      "άσ",
      "msg-a",
      "key-1 fix",
      "-fix",
      '"id":7',
    ]) {
      const f = parseFilter(q);
      expect(index.filter(f, rawOf)).toEqual(tops.filter((t) => matchesFilter(t, f, rawOf)));
    }
    expect(index.filter(parseFilter("τελος"), rawOf).map((t) => t.kind)).toEqual(["submission"]);
    expect(index.filter(parseFilter("οδος"), rawOf).map((t) => t.kind)).toEqual(["request"]);
    expect(index.filter(parseFilter("-fix"), rawOf).map((t) => t.kind)).toEqual(["request", "malformed"]);
  });
});
