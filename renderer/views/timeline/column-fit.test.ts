import { describe, expect, it } from "vitest";
import type { VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import type { Measure } from "../../kit/theme/text-width.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { verdictLines, whatLines } from "./column-fit.js";
import { headerMinWidth, METHOD_WIDTH, VERDICT_WIDTH } from "./column-widths.js";
import {
  PRESENT_NARROW_PX,
  TIMELINE_COLUMNS,
  TIMELINE_HIDDEN_BY_DEFAULT,
  timelineHiddenByDefault,
} from "./timeline-columns.js";

/** 8 px a character at any font: widths the tests can reckon. */
const eights: Measure = (text) => [...text].length * 8;

const hit = (name: VerdictHit["name"], severity: VerdictHit["severity"]): VerdictHit => ({
  name,
  severity,
  detail: "",
  seqs: [],
});

/** A handcrafted row: only the fields the line counts read. */
const submission = (verdicts: VerdictHit[]) =>
  ({ kind: "submission", depth: 0, row: { verdicts } }) as unknown as TimelineRow;
const request = (method: string, retryClass: string, verdicts: VerdictHit[] = [], depth = 0) =>
  ({ kind: "request", depth, row: { method, retryClass, verdicts } }) as unknown as TimelineRow;

// A badge at 8 px a character: its words, its icon (8), 1.3 x 13.5 = 18 of gap and padding, 2 of border;
// and the cell's 15 px of padding.
const badgeCell = (words: string) => words.length * 8 + 8 + 18 + 2 + 15;

describe("verdictLines", () => {
  it("one line for one verdict that fits, none for a row without verdicts", () => {
    expect(verdictLines(submission([hit("single", "ok")]), 200, eights)).toBe(1);
    expect(verdictLines(submission([]), 200, eights)).toBe(1);
    expect(verdictLines({ kind: "event", depth: 0 } as unknown as TimelineRow, 200, eights)).toBe(1);
  });

  it("a line per badge: two verdicts stack, a request's retry class and its verdict stack", () => {
    expect(
      verdictLines(
        submission([hit("deduplicated", "ok"), hit("unkeyed-resend", "client-issue")]),
        300,
        eights,
      ),
    ).toBe(2);
    expect(verdictLines(request("session/new", "duplicating"), 300, eights)).toBe(1);
    expect(
      verdictLines(
        request("session/new", "duplicating", [hit("duplicating-resend", "client-issue")]),
        300,
        eights,
      ),
    ).toBe(2);
  });

  it("a badge wider than its column takes two lines (it wraps at its hyphens) instead of being cut", () => {
    const long = "key-reused-different-prompt";
    const fits = badgeCell(long);
    expect(verdictLines(submission([hit(long, "violation")]), fits, eights)).toBe(1);
    expect(verdictLines(submission([hit(long, "violation")]), fits - 1, eights)).toBe(2);
    // one px short is a second line, not a sliver of an ellipsis
    expect(
      verdictLines(
        submission([hit("duplicate-insert", "violation")]),
        badgeCell("duplicate-insert") - 1,
        eights,
      ),
    ).toBe(2);
    // with a second verdict: two lines for the long one, one for the other
    expect(verdictLines(submission([hit(long, "violation"), hit("single", "ok")]), 150, eights)).toBe(3);
  });

  it("at the default width, every verdict of the demo's stories is one line in the real font's estimate", () => {
    for (const v of ["single", "deduplicated", "withdrawn", "duplicate-insert"] as const)
      expect(verdictLines(submission([hit(v, "ok")]), VERDICT_WIDTH), v).toBe(1);
  });
});

describe("whatLines", () => {
  it("a method that fits is one line; one px short, two (it wraps, never an ellipsis)", () => {
    // at 8 px a character: words, 15 of padding, 1.3 x 15 of expander and gap, 1.2 x 15 a depth
    const fits = "session/resume".length * 8 + 15 + 19.5;
    expect(whatLines(request("session/resume", "safe"), fits, eights)).toBe(1);
    expect(whatLines(request("session/resume", "safe"), fits - 1, eights)).toBe(2);
    expect(whatLines(request("session/resume", "safe", [], 1), fits, eights)).toBe(2);
    expect(
      whatLines(
        { kind: "event", depth: 0, event: { words: "x".repeat(200) } } as unknown as TimelineRow,
        50,
        eights,
      ),
    ).toBe(1);
  });

  it("the Method column's default width holds every lifecycle method whole", () => {
    for (const m of ["session/resume", "session/prompt", "initialize", "session/cancel"])
      expect(whatLines(request(m, "safe"), METHOD_WIDTH), m).toBe(1);
    expect(whatLines(request("session/request_permission", "not-resent"), METHOD_WIDTH)).toBe(2);
  });
});

describe("column widths from their headers", () => {
  it("no column is narrower than its header's widest word needs, by default or at its least", () => {
    for (const c of TIMELINE_COLUMNS) {
      if (typeof c.header !== "string") continue;
      const least = headerMinWidth(c.header);
      expect(c.minSize ?? 0, `${c.header}: least width`).toBeGreaterThanOrEqual(least);
      expect(c.size ?? 0, `${c.header}: default width`).toBeGreaterThanOrEqual(least);
    }
    expect(headerMinWidth("Verdict / retry class", eights)).toBe(7 * 8 + 29);
  });
});

describe("presenter mode's default columns", () => {
  it("below 1440 px presenter mode hides Latency and Waterfall too; wider, or normal mode, it does not", () => {
    expect(timelineHiddenByDefault(true, 1280)).toEqual([
      ...TIMELINE_HIDDEN_BY_DEFAULT,
      "latency",
      "waterfall",
    ]);
    expect(timelineHiddenByDefault(true, PRESENT_NARROW_PX)).toEqual(TIMELINE_HIDDEN_BY_DEFAULT);
    expect(timelineHiddenByDefault(false, 1280)).toEqual(TIMELINE_HIDDEN_BY_DEFAULT);
  });
});
