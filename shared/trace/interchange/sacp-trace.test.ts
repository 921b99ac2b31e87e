import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import type { FrameRecord, TraceRecord } from "../record.js";
import { convertToTrace } from "./convert.js";
import { convertSacpTrace } from "./sacp-trace.js";

const text = readFileSync(
  join(import.meta.dirname, "../../../e2e/fixtures/imports/sacp-trace.jsons"),
  "utf8",
);
const frames = (rs: readonly TraceRecord[]) => rs.filter((r): r is FrameRecord => r.type === "frame");

describe("sacp/symposium conductor trace", () => {
  it("converts the fixture: seconds to milliseconds, payloads to result or error, a deduplicated retry", () => {
    const r = convertToTrace(text);
    if ("error" in r) throw new Error(r.error);
    expect(r.header.imported).toEqual({ format: "sacp-trace", lacks: ["wall-clock", "exact-bytes"] });
    const fs = frames(r.records);
    expect(fs).toHaveLength(9);
    expect(fs[0]?.ts).toBeCloseTo(0.412, 6);
    expect(fs.at(-1)?.ts).toBeCloseTo(2502.118, 6);
    expect(JSON.parse(fs[2]?.raw ?? "")).toEqual({
      jsonrpc: "2.0",
      id: "0b6f0a52-1111-4c1e-8000-000000000002",
      method: "session/new",
      params: { cwd: ".", mcpServers: [] },
    });
    const a = new Analyzer();
    a.ingestHeader(r.header);
    for (const x of r.records) a.ingest(x);
    const m = a.model();
    expect(m.verdictCounts.deduplicated).toBe(1);
    expect(m.submissions[0]?.attempts.map((x) => Math.round(x.latencyMs ?? -1))).toEqual([145, 2]);
  });

  it("gives each hop of a proxy chain its own connection, the end nearer the client as client side", () => {
    const line = (o: object) => JSON.stringify(o);
    const r = convertSacpTrace(
      [
        line({
          type: "request",
          ts: 0.1,
          protocol: "acp",
          from: "client",
          to: "proxy:0",
          id: "a",
          method: "m",
          params: {},
        }),
        line({
          type: "request",
          ts: 0.2,
          protocol: "acp",
          from: "proxy:0",
          to: "agent",
          id: "b",
          method: "m",
          params: {},
        }),
        line({
          type: "response",
          ts: 0.3,
          from: "agent",
          to: "proxy:0",
          id: "b",
          is_error: true,
          payload: { code: -1, message: "no" },
        }),
        line({
          type: "response",
          ts: 0.4,
          from: "proxy:0",
          to: "client",
          id: "a",
          is_error: false,
          payload: null,
        }),
      ].join("\n"),
    );
    expect(frames(r.records).map((f) => [f.conn, f.dir])).toEqual([
      [1, "client->agent"],
      [2, "client->agent"],
      [2, "agent->client"],
      [1, "agent->client"],
    ]);
    expect(
      r.records.filter((x) => x.type === "conn-open").map((x) => (x.type === "conn-open" ? x.peer : "")),
    ).toEqual(["client <-> proxy:0", "proxy:0 <-> agent"]);
    expect(JSON.parse(frames(r.records)[2]?.raw ?? "")).toEqual({
      jsonrpc: "2.0",
      id: "b",
      error: { code: -1, message: "no" },
    });
    expect(JSON.parse(frames(r.records)[3]?.raw ?? "")).toEqual({ jsonrpc: "2.0", id: "a", result: null });
  });

  it("keeps lines it cannot read as notes: not JSON, an unknown event type, an unknown hop", () => {
    const r = convertSacpTrace(
      [
        "not json",
        JSON.stringify({ type: "trace", ts: 1, from: "client", to: "agent", text: "hello" }),
        JSON.stringify({ type: "request", ts: 2, from: "mars", to: "agent", id: 1, method: "m", params: {} }),
      ].join("\n"),
    );
    expect(r.problems).toEqual([
      "line 1: not JSON",
      'line 2: unknown type "trace"',
      'line 3: unknown hop "mars" -> "agent"',
    ]);
    expect(r.records.filter((x) => x.type === "note")).toHaveLength(3);
  });
});
