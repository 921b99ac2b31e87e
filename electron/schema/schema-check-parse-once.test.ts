import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import {
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceHeader,
  type TraceRecord,
} from "../../shared/trace/record.js";
import { analyzeTraceFile } from "../trace/analyze-trace-file.js";
import { TraceSchemaCheck } from "./trace-schema-check.js";

const init = [
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2, capabilities: {} } },
  { jsonrpc: "2.0", id: 0, result: { protocolVersion: 2, capabilities: { session: {} } } },
];

/** Frames of every kind the check and the analyzer tell apart, with a repeated seq and flagged and base64 frames. */
function records(): TraceRecord[] {
  const out: TraceRecord[] = [];
  let seq = 0;
  const frame = (dir: "client->agent" | "agent->client", raw: string, extra: object = {}, at = ++seq) =>
    out.push({ type: "frame", seq: at, ts: at, conn: 1, dir, raw, ...extra });
  frame("client->agent", JSON.stringify(init[0]));
  frame("agent->client", JSON.stringify(init[1]));
  const prompt = {
    jsonrpc: "2.0",
    id: 1,
    method: "session/prompt",
    params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "k-1" },
  };
  frame("client->agent", JSON.stringify(prompt));
  frame("agent->client", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }));
  // the same prompt again under a seq already seen: the analyzer skips it, the check still checks it
  frame(
    "client->agent",
    JSON.stringify({ ...prompt, id: 2, params: { ...prompt.params, sessionId: 7 } }),
    {},
    3,
  );
  frame(
    "agent->client",
    JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: 1 } }),
  );
  frame("client->agent", JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/list", params: {} }));
  // malformed for the analyzer (bad error object), still an error answer the check looks at
  frame("agent->client", JSON.stringify({ jsonrpc: "2.0", id: 3, error: { code: "x" } }));
  frame("agent->client", '{"jsonrpc":"2.0","method":');
  frame("agent->client", "[1,2]");
  frame("agent->client", JSON.stringify({ jsonrpc: "2.0", method: "session/update" }), {
    flags: ["oversize"],
  });
  frame("agent->client", "AAEC", { encoding: "base64" });
  frame("client->agent", JSON.stringify({ jsonrpc: "2.0", id: 4, method: "x/unknown", params: {} }));
  frame(
    "client->agent",
    `{"jsonrpc":"2.0","id":5,"method":"session/new","params":${"[".repeat(300)}${"]".repeat(300)}}`,
  );
  return out;
}

describe("the schema check on the analyzer's parsed frames", () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("says exactly what it says when it parses each frame itself", () => {
    const own = new TraceSchemaCheck("list");
    const shared = new TraceSchemaCheck("list");
    const analyzer = new Analyzer();
    for (const r of records()) {
      own.ingest(r);
      shared.ingest(r, analyzer.ingest(r));
    }
    expect(own.reports.length).toBeGreaterThan(3);
    expect(own.summary().framesWithViolations).toBeGreaterThan(0);
    expect(own.summary().notChecked).toBeGreaterThan(0);
    expect(shared.reports).toEqual(own.reports);
    expect(shared.summary()).toEqual(own.summary());
  });

  it("analyze with the schema check parses each line once and each frame once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acp-ri-parse-once-"));
    dirs.push(dir);
    const path = join(dir, "t.jsonl");
    const recs = records().filter((r, i, all) => all.findIndex((o) => o.seq === r.seq) === i);
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool: "test",
      startedAt: "x",
    };
    writeFileSync(path, encodeHeader(header) + recs.map(encodeRecord).join(""));
    // every frame the analyzer parses: not flagged, not base64 (JSON.parse is called on the broken one too)
    const parsedFrames = recs.filter(
      (r) => r.type === "frame" && r.encoding === undefined && r.flags === undefined,
    ).length;
    const check = new TraceSchemaCheck("list");
    const parse = vi.spyOn(JSON, "parse");
    const { model } = await analyzeTraceFile(path, { observe: (r, parsed) => check.ingest(r, parsed) });
    const texts = parse.mock.calls.map((c) => c[0]);
    parse.mockRestore();
    expect(model.frames).toBe(recs.length);
    expect(check.summary().checked).toBeGreaterThan(3);
    // each frame's raw is parsed once (the analyzer's parse, shared with the check), each record line once
    const raws = new Set(recs.map((r) => (r.type === "frame" ? r.raw : "")));
    expect(texts.filter((t) => raws.has(t)).length).toBe(parsedFrames);
    const lines = new Set(recs.map((r) => encodeRecord(r).slice(0, -1)));
    expect(texts.filter((t) => lines.has(t)).length).toBe(recs.length);
  });
});
