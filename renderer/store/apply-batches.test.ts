import { describe, expect, it } from "vitest";
import type { AppEvent } from "../../shared/app/app-event.js";
import { applyBatches, EMPTY_STREAM } from "./apply-batches.js";

const frame = (seq: number, raw: string): AppEvent => ({
  seq,
  kind: "record",
  record: { type: "frame", seq, ts: seq, conn: 1, dir: "client->agent", raw },
});
const stderr = (seq: number, text: string): AppEvent => ({
  seq,
  kind: "record",
  record: { type: "agent-stderr", seq, ts: seq, text },
});

describe("applyBatches", () => {
  it("classifies frames once, routes stderr to its own list, and tracks the last seq", () => {
    const s = applyBatches(EMPTY_STREAM, [
      { events: [frame(1, '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{}}')], gap: false },
      { events: [stderr(2, "warming up"), frame(3, "not json")], gap: false },
    ]);
    expect(s.rows.map((r) => r.frame)).toEqual([
      { kind: "request", method: "session/prompt", id: "7" },
      { kind: "malformed", method: "", id: "" },
    ]);
    expect(s.stderr.map((l) => l.text)).toEqual(["warming up"]);
    expect(s.lastSeq).toBe(3);
  });

  it("skips replayed events after a reconnect and counts gaps", () => {
    const once = applyBatches(EMPTY_STREAM, [{ events: [frame(1, "{}"), frame(2, "{}")], gap: false }]);
    const again = applyBatches(once, [{ events: [frame(2, "{}"), frame(3, "{}")], gap: true }]);
    expect(again.rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(again.gaps).toBe(1);
  });

  it("empties rows and stderr on clear but keeps the status", () => {
    const s = applyBatches(EMPTY_STREAM, [
      {
        events: [
          { seq: 1, kind: "status", status: { paused: true, agent: "none", clients: 0, label: "x" } },
          frame(2, "{}"),
          stderr(3, "x"),
          { seq: 4, kind: "cleared" },
          frame(5, "{}"),
        ],
        gap: false,
      },
    ]);
    expect(s.rows.map((r) => r.seq)).toEqual([5]);
    expect(s.stderr).toEqual([]);
    expect(s.status?.paused).toBe(true);
  });

  it("never mutates the previous state", () => {
    const before = applyBatches(EMPTY_STREAM, [{ events: [frame(1, "{}")], gap: false }]);
    const rows = before.rows;
    applyBatches(before, [{ events: [frame(2, "{}")], gap: false }]);
    expect(rows).toHaveLength(1);
  });
});
