/**
 * Issue 12 item 6: 10^5 random and mutated records (seeded, so a failure replays) through every
 * reader of records: the trace file reader, the analyzer (and the `analyze` report), and the UI's
 * ingest (an import's line decoding, and hub events into a live trace). None may throw, and every
 * input must come out as a valid record or as an entry kept flagged (or, for a live trace, as a
 * resend the hub protocol skips): nothing is lost without a word.
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoadedTrace } from "../../renderer/model/traces/loaded-trace.js";
import { TraceCatalog } from "../../renderer/model/traces/trace-catalog.js";
import { decodeLines } from "../../renderer/model/traces/trace-file.js";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import { mixedTrace } from "../../shared/analyzer/testing/mixed-trace.js";
import type { HubEvent } from "../../shared/hub/hub-event.js";
import { encodeHeader } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { checkRecord, faultsOf, InvalidRecord, recordFaults } from "../../shared/trace/record-check.js";
import { renderReport } from "../cli/report/report-text.js";
import { terminalSafeJson } from "../platform/terminal-text.js";
import { demoAgent, demoClient, Scratch, tapped } from "../tap/testing/peers.js";
import { traceRecords } from "../tap/testing/proxy-run.js";
import { readTrace } from "./trace-reader.js";

const INPUTS = 100_000;
const SEED = 0x5eed12;

/** mulberry32: the same numbers on every platform for one seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAN_ISH = [
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e999",
  "0x10",
  "",
  " 7",
  "null",
  "undefined",
  "\u0000",
];
const HUGE = [Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53 + 2, -1, 0, 1.5, -0, 1e-300, 2 ** 31, -(2 ** 63)];
const FIELDS = [
  "seq",
  "ts",
  "type",
  "conn",
  "dir",
  "raw",
  "encoding",
  "flags",
  "bytes",
  "dropped",
  "origin",
  "pid",
  "command",
  "code",
  "signal",
  "text",
  "level",
  "action",
  "ruleId",
  "frameSeq",
  "detail",
  "transport",
  "peer",
  "reason",
  "traceId",
  "spanId",
  "parentSpanId",
  "name",
  "kind",
  "startMs",
  "endMs",
  "attributes",
  "status",
  "service",
];

/** Random JSON of any shape, nested up to `depth`. */
function junk(rnd: () => number, depth: number): unknown {
  const pick = Math.floor(rnd() * (depth > 0 ? 9 : 6));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rnd() < 0.5;
    case 2:
      return HUGE[Math.floor(rnd() * HUGE.length)];
    case 3:
      return NAN_ISH[Math.floor(rnd() * NAN_ISH.length)];
    case 4:
      return Math.floor(rnd() * 1000);
    case 5:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(rnd() * 12) }, () => Math.floor(rnd() * 0x3000)),
      );
    case 6:
      return Array.from({ length: Math.floor(rnd() * 4) }, () => junk(rnd, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(rnd() * 4);
      for (let i = 0; i < n; i++)
        o[rnd() < 0.6 ? (FIELDS[Math.floor(rnd() * FIELDS.length)] as string) : `k${i}`] = junk(
          rnd,
          depth - 1,
        );
      return o;
    }
  }
}

/** One fuzz input: mostly a real record with one to three mutations, sometimes pure junk. */
function fuzzInput(rnd: () => number, corpus: readonly TraceRecord[], made: readonly unknown[]): unknown {
  if (rnd() < 0.1) return junk(rnd, 3);
  const base = corpus[Math.floor(rnd() * corpus.length)] as TraceRecord;
  const r: Record<string, unknown> = structuredClone(base) as unknown as Record<string, unknown>;
  // a fresh, growing seq most of the time, so valid records stay analysable
  r.seq = made.length + 1;
  const mutations = rnd() < 0.15 ? 0 : 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < mutations; i++) {
    const keys = Object.keys(r);
    const field =
      rnd() < 0.7
        ? (keys[Math.floor(rnd() * keys.length)] as string)
        : (FIELDS[Math.floor(rnd() * FIELDS.length)] as string);
    const how = Math.floor(rnd() * 8);
    if (how === 0) delete r[field];
    else if (how === 1) r[field] = HUGE[Math.floor(rnd() * HUGE.length)];
    else if (how === 2) r[field] = NAN_ISH[Math.floor(rnd() * NAN_ISH.length)];
    else if (how === 3) r[field] = junk(rnd, 3);
    else if (how === 4)
      r.raw = junk(rnd, 2); // non-string raw, the issue's repro
    else if (how === 5 && made.length > 0)
      r.seq = Math.max(1, made.length - Math.floor(rnd() * 5)); // repeated or going back
    else if (how === 6)
      r.type = ["frame", "note", "fault", "agent-exit", "conn-open", "agent-span"][Math.floor(rnd() * 6)];
    else r[field] = { nested: [junk(rnd, 4), { deeper: junk(rnd, 4) }] };
  }
  return r;
}

const scratch = new Scratch();
afterAll(() => scratch.cleanup());
let corpus: TraceRecord[] = [];
let inputs: unknown[] = [];
let header: TraceHeader;
const tracePath = scratch.path("fuzz.trace.jsonl");

beforeAll(async () => {
  // Real records: a demo session through the real tap (a dropped answer, a keyed retry), plus every analyzer path.
  const real = scratch.path("demo.trace.jsonl");
  const report = await demoClient(scratch, [
    "--timeout",
    "4000",
    "--no-wait-idle",
    "--",
    ...tapped(
      real,
      ["--fault", "drop-response:method=session/prompt"],
      demoAgent(scratch, "--turn-ms", "50"),
    ),
  ]);
  expect(report.ok).toBe(true);
  const demo = await traceRecords(real);
  expect(demo.some((r) => r.type === "frame")).toBe(true);
  const mixed = mixedTrace(200, 11);
  // Agent spans (proxy --collect-agent-telemetry) as the receiver writes them.
  const spans: TraceRecord[] = [1, 2, 3].map((n) => ({
    type: "agent-span",
    seq: n,
    ts: n,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: `b7ad6b716920333${n}`,
    ...(n > 1 && { parentSpanId: "b7ad6b7169203331" }),
    name: n === 1 ? "prompt turn" : "insert",
    kind: 1,
    startMs: 1000 + n,
    endMs: 1100 + n,
    attributes: { "acp.dedup.result": "new", n, ok: true, list: ["a", 1] },
    ...(n === 3 && { status: "error" as const, statusMessage: "boom" }),
    service: "demo-agent",
    conn: 1,
  }));
  corpus = [...demo, ...mixed.records, ...spans];
  header = mixed.header();
  const rnd = seeded(SEED);
  inputs = [];
  for (let i = 0; i < INPUTS; i++) inputs.push(fuzzInput(rnd, corpus, inputs));
  writeFileSync(tracePath, encodeHeader(header) + inputs.map((v) => `${JSON.stringify(v)}\n`).join(""));
}, 120_000);

describe(`${INPUTS} random and mutated records (seed ${SEED})`, { timeout: 120_000 }, () => {
  it("mixes valid records, invalid ones and seqs that repeat or go back", () => {
    const checked = inputs.map(checkRecord);
    const invalid = checked.filter((c) => c instanceof InvalidRecord).length;
    expect(invalid).toBeGreaterThan(INPUTS / 4);
    expect(INPUTS - invalid).toBeGreaterThan(INPUTS / 10);
    const faults = new Set(
      checked.flatMap((c) => (c instanceof InvalidRecord ? c.faults.map((f) => f.field) : [])),
    );
    for (const field of ["raw", "seq", "ts", "type", "conn", "record"]) expect(faults).toContain(field);
  });

  it("the fast check every record pays agrees with the field-by-field one on every input", () => {
    let disagree = 0;
    for (const v of inputs) {
      if (v === null || typeof v !== "object" || Array.isArray(v)) continue;
      const r = v as Record<string, unknown>;
      if ((recordFaults(r) === undefined) !== (faultsOf(r) === undefined)) disagree++;
    }
    expect(disagree).toBe(0);
  });

  it("the trace reader and the analyzer: no exception, every line a record, an invalid entry or a problem", async () => {
    const analyzer = new Analyzer();
    const kinds = { record: 0, invalid: 0, problem: 0 };
    for await (const ev of readTrace(tracePath)) {
      if (ev.kind === "header") analyzer.ingestHeader(ev.header);
      else if (ev.kind === "record") {
        kinds.record++;
        analyzer.ingest(ev.record);
      } else if (ev.kind === "invalid") {
        kinds.invalid++;
        analyzer.ingestInvalid(ev.invalid, ev.line);
      } else {
        kinds.problem++;
        analyzer.ingestProblem({ line: ev.line, message: ev.message, truncated: ev.truncated });
      }
    }
    expect(kinds.record + kinds.invalid + kinds.problem).toBe(INPUTS);
    expect(kinds.invalid).toBeGreaterThan(0);
    const model = analyzer.model();
    const seqIssues = (model.seqIssues?.repeated ?? 0) + (model.seqIssues?.decreasing ?? 0);
    expect(seqIssues).toBeGreaterThan(0);
    expect(model.records + seqIssues).toBe(kinds.record);
    expect(model.invalid?.length ?? 0).toBe(kinds.invalid);
    expect(model.problems.length).toBe(kinds.problem);
    // what `analyze` prints, text and JSON
    expect(renderReport("fuzz.trace.jsonl", model)).toContain("Invalid records");
    expect(JSON.parse(terminalSafeJson(model, 0)).records).toBe(model.records);
  });

  it("the UI's import: no exception, every line a record or an entry kept flagged", () => {
    const lines = inputs.map((v) => JSON.stringify(v));
    const s = new LoadedTrace("import-1", "fuzz", "imported");
    s.setHeader(header);
    for (let from = 0; from < lines.length; from += 10_000) {
      const chunk = decodeLines(lines, from, from + 10_000);
      for (const entry of chunk.entries) s.ingest(entry);
      s.publish();
    }
    expect(s.records.length + s.flagged.length).toBe(INPUTS);
    expect(s.view.flagged).toBe(s.flagged.length);
    expect(s.view.seqIssues).toBeGreaterThan(0);
    expect(s.view.records).toBe(s.records.length);
  });

  it("the UI's live feed: no exception, every hub event a record, a flagged entry or a skipped resend", () => {
    const catalog = new TraceCatalog();
    const events: HubEvent[] = inputs.map((record, i) => ({
      seq: i + 2,
      kind: "record",
      traceId: "t1",
      record: record as TraceRecord,
    }));
    catalog.applyHubEvents([
      { seq: 1, kind: "tap-attached", traceId: "t1", tapId: "tap-fuzz-1", header, at: 0 },
    ]);
    for (let i = 0; i < events.length; i += 5_000) {
      for (const s of catalog.applyHubEvents(events.slice(i, i + 5_000))) s.publish();
    }
    const s = catalog.get("t1") as LoadedTrace;
    const valid = inputs.filter((v) => !(checkRecord(v) instanceof InvalidRecord)) as TraceRecord[];
    let newest = 0;
    let resends = 0;
    for (const r of valid) {
      if (r.seq <= newest) resends++;
      else newest = r.seq;
    }
    expect(s.records.length).toBe(valid.length - resends);
    expect(s.flagged.length).toBe(INPUTS - valid.length);
    expect(s.records.length + s.flagged.length + resends).toBe(INPUTS);
  });
});
