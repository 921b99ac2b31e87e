import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import type { FrameRecord, TraceRecord } from "../record.js";
import { convertToTrace } from "./convert.js";
import { convertZedLog } from "./zed-log.js";

const text = readFileSync(
  join(import.meta.dirname, "../../../e2e/fixtures/imports/zed-copy-all.json"),
  "utf8",
);
const frames = (rs: readonly TraceRecord[]) => rs.filter((r): r is FrameRecord => r.type === "frame");

describe("Zed ACP log (Copy All)", () => {
  it("converts the fixture: one connection, directions from Zed's side, JSON-RPC rebuilt, errors told from results", () => {
    const r = convertToTrace(text);
    if ("error" in r) throw new Error(r.error);
    expect(r.format).toBe("zed-log");
    expect(r.header.imported).toEqual({ format: "zed-log", lacks: ["timestamps", "exact-bytes"] });
    expect(r.problems).toEqual([]);
    const fs = frames(r.records);
    expect(fs).toHaveLength(11);
    expect(fs.every((f) => f.conn === 1 && f.flags === undefined)).toBe(true);
    expect(fs.map((f) => f.dir).slice(0, 2)).toEqual(["client->agent", "agent->client"]);
    expect(JSON.parse(fs[0]?.raw ?? "")).toMatchObject({ jsonrpc: "2.0", id: 0, method: "initialize" });
    // A notification has no id; Zed's `"id": null` does not become one.
    expect(JSON.parse(fs[5]?.raw ?? "")).not.toHaveProperty("id");
    expect(JSON.parse(fs[6]?.raw ?? "")).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { messageId: "msg-zed-1", stopReason: "end_turn" },
    });
    expect(JSON.parse(fs[10]?.raw ?? "")).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32002, message: "Resource not found: sess-zed-0" },
    });
    // ts is synthetic: one step per row, in order.
    expect(r.records.map((x) => x.ts)).toEqual(r.records.map((_, i) => i));
  });

  it("the analyzer judges it and gives no latency (times are unknown)", () => {
    const r = convertToTrace(text);
    if ("error" in r) throw new Error(r.error);
    const a = new Analyzer();
    a.ingestHeader(r.header);
    for (const x of r.records) a.ingest(x);
    const m = a.model();
    expect(m.verdictCounts["duplicate-insert"]).toBe(1);
    const attempts = m.submissions.flatMap((s) => s.attempts);
    expect(attempts).toHaveLength(2);
    expect(attempts.every((x) => x.latencyMs === null)).toBe(true);
    expect(m.requests.every((x) => x.latencyMs === null)).toBe(true);
  });

  it("keeps entries it cannot read as notes, never throws", () => {
    const r = convertZedLog([
      42,
      { _direction: "sideways", _type: "request", id: 1, method: "x", params: null },
      { _direction: "outgoing", _type: "telepathy", id: 1, method: "x", params: null },
      { _direction: "outgoing", _type: "request", id: 1, method: "ping", params: null },
    ]);
    expect(r.problems).toEqual([
      "entry 1: not an object",
      'entry 2: unknown _direction "sideways"',
      'entry 3: unknown _type "telepathy"',
    ]);
    const notes = r.records.filter((x) => x.type === "note");
    expect(notes.map((n) => (n.type === "note" ? n.text : ""))).toEqual([
      "not imported as a frame (entry 1: not an object): 42",
      expect.stringContaining('"sideways"'),
      expect.stringContaining('"telepathy"'),
    ]);
    expect(frames(r.records).map((f) => f.raw)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
  });
});
