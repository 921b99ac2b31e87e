import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import type { FrameRecord, TraceRecord } from "../record.js";
import { convertAcpInspectorJsonl } from "./acp-inspector-jsonl.js";
import { convertToTrace } from "./convert.js";

const text = readFileSync(
  join(import.meta.dirname, "../../../e2e/fixtures/imports/acp-inspector.jsonl"),
  "utf8",
);
const frames = (rs: readonly TraceRecord[]) => rs.filter((r): r is FrameRecord => r.type === "frame");

describe("venikman/ACP-inspector JSONL", () => {
  it("converts the fixture keeping each `json` string as the frame's exact text, with ISO times", () => {
    const r = convertToTrace(text);
    if ("error" in r) throw new Error(r.error);
    expect(r.header.imported).toEqual({ format: "acp-inspector-jsonl", lacks: [] });
    expect(r.header.startedAt).toBe("2026-11-30T09:15:00.000Z");
    const source = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { ts: string; direction: string; json: string });
    const fs = frames(r.records);
    expect(fs.map((f) => f.raw)).toEqual(source.map((s) => s.json));
    expect(fs.map((f) => f.ts)).toEqual(source.map((s) => Date.parse(s.ts)));
    expect(fs.map((f) => f.dir)).toEqual(
      source.map((s) => (s.direction === "fromClient" ? "client->agent" : "agent->client")),
    );
    const a = new Analyzer();
    a.ingestHeader(r.header);
    for (const x of r.records) a.ingest(x);
    expect(a.model().verdictCounts["retried-after-error"]).toBe(1);
  });

  it("reads the other direction names and epoch-ms times; flags a frame that is not JSON-RPC; keeps bad lines", () => {
    const r = convertAcpInspectorJsonl(
      [
        JSON.stringify({ ts: 1000, direction: "C2A", json: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }),
        JSON.stringify({ ts: 900, direction: "a->c", json: "Loading model..." }),
        JSON.stringify({ ts: 1100, direction: "up", json: "{}" }),
        JSON.stringify({ ts: 1200, direction: "agent", json: { not: "a string" } }),
        "{broken",
      ].join("\n"),
    );
    const fs = frames(r.records);
    expect(fs.map((f) => [f.dir, f.raw, f.flags ?? null, f.ts])).toEqual([
      ["client->agent", '{"jsonrpc":"2.0","id":1,"method":"ping"}', null, 1000],
      // An earlier time keeps the clock where it was: the trace's ts never goes backwards.
      ["agent->client", "Loading model...", ["malformed"], 1000],
    ]);
    expect(r.problems).toEqual([
      'line 3: unknown direction "up"',
      'line 4: "json" is not a string',
      "line 5: not JSON",
    ]);
  });
});
