import { describe, expect, it } from "vitest";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import {
  type ArrowRow,
  formatDuration,
  type GapRow,
  IDLE_GAP_MS,
  layoutSequence,
  type MarkerRow,
  ROW_HEIGHT,
  rowIndexAt,
  rowIndexOfSeq,
  type SequenceItem,
} from "./sequence-layout.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const A2C = "agent->client" as const;

function chunk(t: TraceScript, conn: number, kind = "agent_message_chunk") {
  return t.notify(conn, A2C, "session/update", {
    sessionId: S,
    update: { sessionUpdate: kind, content: { type: "text", text: "x" } },
  });
}

function model(t: TraceScript) {
  const a = new Analyzer();
  a.ingestHeader(t.header());
  for (const r of t.records) a.ingest(r);
  return a.model();
}

const arrows = (items: readonly SequenceItem[]) => items.filter((i): i is ArrowRow => i.kind === "arrow");
const items = (t: TraceScript, withModel = false) =>
  layoutSequence(t.records, withModel ? model(t) : null).rows.map((r) => r.item);

describe("layoutSequence", () => {
  it("draws a prompt and its answer between Client and Agent with method, id, short key and outcome", () => {
    const t = new TraceScript().open(1).prompt(1, 7, S, "hello", KEY).inserted(1, 7, "m1");
    const [, prompt, answer] = items(t, true) as [MarkerRow, ArrowRow, ArrowRow];
    expect(prompt).toMatchObject({ arrow: "request", from: "client", to: "agent", seq: 2, dropped: false });
    expect(prompt.label).toBe("session/prompt  id 7  key 5f0c7b1e…5c6d7e");
    expect(prompt.detail).toBe("submission 1 · attempt 1 of 1 · single");
    expect(answer).toMatchObject({ arrow: "response", from: "agent", to: "client", tone: "ok" });
    expect(answer.label).toBe("messageId m1");
    expect(answer.detail).toBe("answers session/prompt  id 7");
  });

  it("labels errors and cancellations with their codes", () => {
    const t = new TraceScript().prompt(1, 1, S, "a", "").error(1, 1, -32602, "bad key");
    t.prompt(1, 2, S, "b").error(1, 2, -32800, "cancelled");
    const a = arrows(items(t));
    expect(a[0]?.label).toBe("session/prompt  id 1  key ");
    expect(a[1]).toMatchObject({ label: "error -32602  bad key", tone: "error" });
    expect(a[3]).toMatchObject({ label: "cancelled -32800  cancelled", tone: "warn" });
  });

  it("ends a dropped frame at the Inspector lane and says so", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hello", KEY, { dropped: true })
      .prompt(1, 2, S, "hello", KEY)
      .inserted(1, 2, "m1", { dropped: true });
    const [req, , resp] = arrows(items(t));
    expect(req).toMatchObject({ from: "client", to: "inspector", dropped: true });
    expect(req?.detail).toMatch(/^dropped by the inspector/);
    expect(req?.ariaLabel).toContain("client to inspector (dropped)");
    expect(resp).toMatchObject({ from: "agent", to: "inspector", dropped: true, label: "messageId m1" });
  });

  it("draws connection breaks, agent restarts, faults and notes as markers", () => {
    const t = new TraceScript().spawn(10).open(1).close(1, "EOF").exit(10, null, "SIGKILL").spawn(11);
    t.records.push({
      type: "fault",
      seq: 6,
      ts: t.startTs + 6,
      action: "drop-response",
      frameSeq: 3,
      ruleId: "r1",
    });
    t.records.push({ type: "note", seq: 7, ts: t.startTs + 7, level: "warn", text: "trace gap" });
    const m = items(t) as MarkerRow[];
    expect(m.map((x) => [x.marker, x.label])).toEqual([
      ["agent-spawn", "agent 10 started"],
      ["conn-open", "connection #1 opened (stdio)"],
      ["conn-close", "connection #1 closed: EOF"],
      ["agent-exit", "agent 10 exited (SIGKILL)"],
      ["agent-spawn", "agent 11 started"],
      ["fault", "fault: drop-response on frame #3 (rule r1)"],
      ["note", "note: trace gap"],
    ]);
  });

  it("compresses idle time into a labelled gap row", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "a")
      .wait(3200)
      .inserted(1, 1, "m1")
      .wait(IDLE_GAP_MS - 5);
    t.inserted(1, 9, "m9");
    const rows = items(t);
    expect(rows.map((r) => r.kind)).toEqual(["arrow", "gap", "arrow", "arrow"]);
    expect((rows[1] as GapRow).label).toBe("… 3.2 s idle …");
  });

  it("collapses a burst of session/update chatter into one arrow with a count, keeping user_message apart", () => {
    const t = new TraceScript();
    for (let i = 0; i < 30; i++) chunk(t, 1);
    chunk(t, 1, "tool_call");
    t.userMessage(1, S, "m1");
    chunk(t, 1);
    chunk(t, 2);
    const a = arrows(items(t));
    expect(a.map((x) => x.count)).toEqual([31, 1, 1, 1]);
    expect(a[0]).toMatchObject({ seq: 1, lastSeq: 31, label: "session/update ×31" });
    expect(a[0]?.detail).toMatch(/^agent_message_chunk ×30 · tool_call ×1 · \d+\.\d kB$/);
    expect(a[1]?.label).toBe("session/update  user_message  messageId m1");
  });

  it("skips agent stderr and counts frames", () => {
    const t = new TraceScript().stderr(1, "log").raw(1, A2C, "not json").stderr(1, "log");
    const l = layoutSequence(t.records);
    expect(l.frames).toBe(1);
    expect(arrows(l.rows.map((r) => r.item))[0]).toMatchObject({ arrow: "malformed", tone: "error" });
  });

  it("stacks rows downwards and finds rows by y and by seq", () => {
    const t = new TraceScript().open(1).prompt(1, 1, S, "a").wait(5000);
    for (let i = 0; i < 5; i++) chunk(t, 1);
    t.inserted(1, 1, "m1");
    const l = layoutSequence(t.records);
    const ys = l.rows.map((r) => r.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(l.height).toBe(ROW_HEIGHT.marker + 3 * ROW_HEIGHT.arrow + ROW_HEIGHT.gap);
    expect(rowIndexAt(l, 0)).toBe(0);
    expect(rowIndexAt(l, ROW_HEIGHT.marker)).toBe(1);
    expect(rowIndexAt(l, l.height + 100)).toBe(l.rows.length - 1);
    expect(rowIndexOfSeq(l, 5)).toBe(3); // inside the burst (seq 3..7) after the gap row
    expect(rowIndexOfSeq(l, 8)).toBe(4);
    expect(rowIndexOfSeq(l, 99)).toBe(-1);
  });

  it("lays out 50,000 frames quickly", () => {
    const t = new TraceScript();
    for (let i = 0; i < 25_000; i++) t.prompt(1, i, S, "p", `key-${i}`).inserted(1, i, `m${i}`);
    const started = performance.now();
    const l = layoutSequence(t.records);
    expect(l.rows).toHaveLength(50_000);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(rowIndexOfSeq(l, 31_337)).toBe(31_336);
  });
});

describe("formatDuration", () => {
  it("reads naturally at every scale", () => {
    expect([850, 3200, 125_000, 3_780_000].map(formatDuration)).toEqual([
      "850 ms",
      "3.2 s",
      "2 min 5 s",
      "1 h 3 min",
    ]);
  });
});
