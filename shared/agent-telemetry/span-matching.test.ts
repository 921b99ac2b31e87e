import { describe, expect, it } from "vitest";
import type { AgentSpanRecord } from "../trace/record.js";
import { type AttemptWindow, matchAgentSpans, noMatchReason, spanRows, spanTrees } from "./span-matching.js";
import { parseTraceParent, traceParentOfParams } from "./trace-context.js";

const T1 = "0af7651916cd43dd8448eb211c80319c";
const T2 = "4bf92f3577b34da6a3ce929d0e0e4736";
let seq = 0;
function span(
  name: string,
  spanId: string,
  startMs: number,
  endMs: number,
  more: Partial<AgentSpanRecord> = {},
): AgentSpanRecord {
  return {
    type: "agent-span",
    seq: ++seq,
    ts: endMs + 5,
    traceId: T1,
    spanId,
    name,
    startMs,
    endMs,
    ...more,
  };
}
const id = (n: number) => n.toString(16).padStart(16, "0");
function attempt(
  key: string,
  start: number,
  end: number | null,
  more: Partial<AttemptWindow> = {},
): AttemptWindow {
  return { key, conn: 1, start, end, traceParent: null, ...more };
}

describe("traceparent", () => {
  it("reads a W3C traceparent from params._meta, and refuses what is not one", () => {
    const tp = `00-${T2}-00f067aa0ba902b7-01`;
    expect(traceParentOfParams({ sessionId: "s", _meta: { traceparent: tp } })).toEqual({
      traceId: T2,
      parentId: "00f067aa0ba902b7",
      sampled: true,
    });
    expect(parseTraceParent(`00-${T2}-00f067aa0ba902b7-00`)?.sampled).toBe(false);
    for (const bad of [
      undefined,
      42,
      "",
      `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
      `00-${T2}-${"0".repeat(16)}-01`,
      `ff-${T2}-00f067aa0ba902b7-01`,
      `00-${T2.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${T2}-00f067aa0ba902b7-01-extra`,
    ])
      expect(parseTraceParent(bad)).toBeNull();
    expect(traceParentOfParams({ _meta: "x" })).toBeNull();
    expect(traceParentOfParams(null)).toBeNull();
  });
});

describe("spanTrees", () => {
  it("nests children under their parents by id, children by start time, a repeated span once", () => {
    const root = span("prompt turn", id(1), 100, 200);
    const insert = span("insert", id(3), 150, 190, { parentSpanId: id(1) });
    const lookup = span("dedup lookup", id(2), 110, 120, { parentSpanId: id(1) });
    const orphan = span("late child", id(9), 300, 310, { parentSpanId: id(8) });
    const trees = spanTrees([insert, root, lookup, orphan, { ...lookup, seq: 99 }]);
    expect(trees.map((t) => t.span.name)).toEqual(["prompt turn", "late child"]);
    expect(spanRows(trees[0] as never).map((r) => [r.span.name, r.depth, r.durationMs])).toEqual([
      ["prompt turn", 0, 100],
      ["dedup lookup", 1, 10],
      ["insert", 1, 40],
    ]);
  });
});

describe("matchAgentSpans", () => {
  it("by time: a tree goes to the attempt on its connection under way when its root started", () => {
    const attempts = [
      attempt("s1.a0", 1000, 1500),
      attempt("s1.a1", 2000, 2600),
      attempt("s2.a0", 2100, null, { conn: 2 }),
    ];
    const first = span("prompt turn", id(1), 1002, 1490, { conn: 1 });
    const child = span("insert", id(2), 1100, 1400, { conn: 1, parentSpanId: id(1) });
    const second = span("prompt turn", id(3), 2150, 2500, { conn: 1, traceId: T2 });
    const onConn2 = span("prompt turn", id(4), 2150, 2500, { conn: 2, traceId: T2 });
    const m = matchAgentSpans(attempts, [first, child, second, onConn2]);
    expect(m.byAttempt.get("s1.a0")?.count).toBe(2);
    expect(m.byAttempt.get("s1.a0")?.trees.map((t) => [t.root.span.spanId, t.by])).toEqual([[id(1), "time"]]);
    expect(m.byAttempt.get("s1.a1")?.trees.map((t) => t.root.span.spanId)).toEqual([id(3)]);
    expect(m.byAttempt.get("s2.a0")?.trees.map((t) => t.root.span.spanId)).toEqual([id(4)]);
    expect(m.unmatched).toEqual([]);
  });

  it("allows the clock slack around a window, and leaves a span outside every window unmatched", () => {
    const attempts = [attempt("s1.a0", 1000, 1500)];
    const early = span("early", id(1), 960, 980);
    const late = span("late", id(2), 1540, 1545);
    const outside = span("outside", id(3), 1700, 1800);
    const m = matchAgentSpans(attempts, [early, late, outside]);
    expect(m.byAttempt.get("s1.a0")?.trees.map((t) => t.root.span.name)).toEqual(["early", "late"]);
    expect(m.unmatched.map((n) => n.span.name)).toEqual(["outside"]);
  });

  it("of overlapping windows on one connection, picks the one whose request and answer fit the span best", () => {
    const attempts = [attempt("s1.a0", 1000, null), attempt("s2.a0", 1200, 1300)];
    const m = matchAgentSpans(attempts, [span("a", id(1), 1210, 1290), span("b", id(2), 1100, 1150)]);
    expect(m.byAttempt.get("s2.a0")?.trees.map((t) => t.root.span.name)).toEqual(["a"]);
    expect(m.byAttempt.get("s1.a0")?.trees.map((t) => t.root.span.name)).toEqual(["b"]);
    // Two prompts sent 1 ms apart, answered one after the other: each turn goes to its own.
    const two = [attempt("s3.a0", 2000, 2100), attempt("s4.a0", 2001, 2200)];
    const m2 = matchAgentSpans(two, [span("turn 1", id(3), 2002, 2099), span("turn 2", id(4), 2100, 2199)]);
    expect(m2.byAttempt.get("s3.a0")?.trees.map((t) => t.root.span.name)).toEqual(["turn 1"]);
    expect(m2.byAttempt.get("s4.a0")?.trees.map((t) => t.root.span.name)).toEqual(["turn 2"]);
  });

  it("by trace context: the attempt whose request carried the trace id wins over time, its parent id first", () => {
    const tp = (parentId: string) => ({ traceId: T2, parentId, sampled: true });
    const attempts = [
      attempt("s1.a0", 1000, 1500, { traceParent: tp("00000000000000aa") }),
      attempt("s1.a1", 2000, 2500, { traceParent: tp("00000000000000bb") }),
      attempt("s3.a0", 5000, 6000),
    ];
    // Started during s3.a0 by the clock, but its trace and parent say s1.a1.
    const root = span("prompt turn", id(1), 5100, 5200, { traceId: T2, parentSpanId: "00000000000000bb" });
    const m = matchAgentSpans(attempts, [root]);
    expect(m.byAttempt.get("s1.a1")?.trees.map((t) => t.by)).toEqual(["trace-context"]);
    expect(m.byAttempt.has("s3.a0")).toBe(false);
  });
});

describe("noMatchReason", () => {
  it("says how far outside the nearest attempt of its connection an unmatched root started", () => {
    const attempts = [
      attempt("s1.a0", 1000, 1200),
      attempt("s2.a0", 3000, 3500),
      attempt("s3.a0", 0, null, { conn: 2 }),
    ];
    const early = span("early", id(1), 400, 450);
    const between = span("between", id(2), 2000, 2100);
    const late = span("late", id(3), 4000, 4100, { conn: 1 });
    const elsewhere = span("elsewhere", id(4), 500, 600, { conn: 3 });
    expect(matchAgentSpans(attempts.slice(0, 2), [early, between, late]).unmatched).toHaveLength(3);
    expect(noMatchReason(early, attempts.slice(0, 2))).toEqual({
      conn: null,
      candidates: 2,
      gapMs: 600,
      side: "before",
    });
    // 800 ms after the first attempt's answer, 1000 ms before the second's request: the first is nearest.
    expect(noMatchReason(between, attempts.slice(0, 2))).toEqual({
      conn: null,
      candidates: 2,
      gapMs: 800,
      side: "after",
    });
    expect(noMatchReason(late, attempts)).toEqual({ conn: 1, candidates: 2, gapMs: 500, side: "after" });
    expect(noMatchReason(elsewhere, attempts)).toEqual({ conn: 3, candidates: 0, gapMs: null, side: null });
  });
});
