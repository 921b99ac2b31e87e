/**
 * The Diff tab's rows on real recordings (shared/diff/fixtures: demo-client → the real tap with
 * lose-and-retry → demo-agent correct / naive): the same marks and words as `diff`, each side
 * linked to the Timeline row of its submission.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { type DiffInput, diffLoaded, diffRows, fieldWords } from "./diff-rows.js";

const FIXTURES = join(import.meta.dirname, "../../../shared/diff/fixtures");

function loaded(name: string): DiffInput {
  const lines = readFileSync(join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const header = JSON.parse(lines[0] as string) as TraceHeader;
  const records = lines.slice(1).map((l) => JSON.parse(l) as TraceRecord);
  const analyzer = new Analyzer();
  analyzer.ingestHeader(header);
  for (const r of records) analyzer.ingest(r);
  return { header, records, model: analyzer.model() };
}

describe("diff rows", () => {
  it("correct → naive: the retried submission is worse, deduplicated → duplicate-insert, in diff's words", () => {
    const a = loaded("correct.jsonl");
    const b = loaded("naive.jsonl");
    const rows = diffRows(diffLoaded(a, b), "A1", "B1");
    const row = rows.find((r) => r.prompt === "deploy it");
    expect(row?.mark).toBe("worse");
    expect(row?.verdictMark).toBe("worse");
    expect(row?.match).toBe("matched by session position and prompt");
    expect(row?.changed.map(fieldWords)).toContain(
      "verdicts [worse]: deduplicated → duplicate-insert  (duplicate-insert (violation) where A had deduplicated)",
    );
    expect(row?.a?.verdicts).toBe("deduplicated");
    expect(row?.b?.verdicts).toBe("duplicate-insert");
    // changed rows first
    expect(rows[0]?.mark).not.toBe("same");
  });

  it("each side links to its own trace's Timeline row: s<row id> and the first request's seq", () => {
    const a = loaded("correct.jsonl");
    const b = loaded("naive.jsonl");
    const rows = diffRows(diffLoaded(a, b), "A1", "B1");
    for (const row of rows) {
      for (const [side, input, id] of [
        [row.a, a, "A1"],
        [row.b, b, "B1"],
      ] as const) {
        if (!side) continue;
        expect(side.traceId).toBe(id);
        const sub = input.model.submissions.find((s) => `s${s.id}` === side.rowKey);
        expect(sub?.promptPreview).toBe(row.prompt);
        expect(side.seq).toBe(sub?.attempts[0]?.requestSeq);
      }
    }
  });

  it("a trace against itself: every row is the same, with nothing changed", () => {
    const a = loaded("correct.jsonl");
    const rows = diffRows(diffLoaded(a, loaded("correct.jsonl")), "x", "y");
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.every((r) => r.mark === "same" && r.changed.length === 0 && r.match === "matched by key"),
    ).toBe(true);
  });
});
