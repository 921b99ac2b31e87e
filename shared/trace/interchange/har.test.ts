import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import { TraceScript } from "../../analyzer/testing/trace-script.js";
import type { FrameRecord, TraceRecord } from "../record.js";
import { base64Bytes, utf8Decode } from "./bytes.js";
import { convertToTrace, traceText } from "./convert.js";
import { convertHar, sseEvents, traceToHar } from "./har.js";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, "../../../e2e/fixtures/imports", name), "utf8");
const frames = (rs: readonly TraceRecord[]) => rs.filter((r): r is FrameRecord => r.type === "frame");
function judged(records: readonly TraceRecord[]) {
  const a = new Analyzer();
  for (const r of records) a.ingest(r);
  return a.model();
}

describe("HAR import", () => {
  it("reads Chrome's _webSocketMessages: one connection per socket, send = client->agent, data kept exactly", () => {
    const doc = JSON.parse(fixture("chrome-websocket.har"));
    const r = convertHar(doc);
    expect(r.header.imported).toEqual({ format: "har", lacks: [] });
    const fs = frames(r.records);
    const sent = doc.log.entries
      .slice(1)
      .flatMap((e: { _webSocketMessages: { opcode: number; data: string }[] }) =>
        e._webSocketMessages.filter((m) => m.opcode === 1).map((m) => m.data),
      );
    expect(fs.map((f) => f.raw)).toEqual(sent);
    expect(new Set(fs.map((f) => f.conn))).toEqual(new Set([1, 2]));
    expect(fs[0]?.ts).toBeCloseTo(1764493200010, 3);
    const notes = r.records.filter((x) => x.type === "note").map((x) => (x.type === "note" ? x.text : ""));
    expect(notes).toEqual([
      'WebSocket close frame (agent->client): ""',
      "left out 1 HAR entries that carry no ACP frames",
    ]);
    expect(judged(r.records).verdictCounts.deduplicated).toBe(1);
  });

  it("reads Streamable HTTP: POST bodies, JSON answers and each SSE event, joined by Acp-Connection-Id", () => {
    const r = convertToTrace(fixture("streamable-http.har"));
    if ("error" in r) throw new Error(r.error);
    expect(r.header.imported).toEqual({ format: "har", lacks: ["event-times"] });
    const fs = frames(r.records);
    expect(fs.map((f) => [f.conn, f.dir, JSON.parse(f.raw).method ?? JSON.parse(f.raw).id])).toEqual([
      [1, "client->agent", "initialize"],
      [1, "agent->client", 0],
      [1, "client->agent", "session/new"],
      [1, "agent->client", 1],
      [1, "client->agent", "session/prompt"],
      [1, "agent->client", "session/update"],
      [1, "agent->client", 2],
      [1, "client->agent", "session/prompt"],
      [1, "agent->client", 3],
    ]);
    // Both SSE events of one answer carry the answer's end: startedDateTime + time.
    expect(fs[5]?.ts).toBe(fs[6]?.ts);
    expect(fs[6]?.ts).toBeCloseTo(Date.parse("2025-11-30T10:00:00.500Z") + 1840, 3);
    expect(judged(r.records).verdictCounts["duplicate-insert"]).toBe(1);
  });

  it("parses event-stream bodies per the SSE rules", () => {
    expect(
      sseEvents('event: message\ndata: {"a":1}\n\n: comment\ndata:x\ndata: y\r\n\r\nid: 3\ndata: last'),
    ).toEqual(['{"a":1}', "x\ny", "last"]);
  });

  it("keeps binary WebSocket frames, flags non-JSON-RPC ones and never throws on junk entries", () => {
    const r = convertHar({
      log: {
        entries: [
          null,
          {
            startedDateTime: "2026-01-01T00:00:00Z",
            request: { url: "ws://x/acp" },
            _webSocketMessages: [
              { type: "send", time: 1, opcode: 2, data: "/+4=" },
              { type: "send", time: 2, opcode: 2, data: "eyJqc29ucnBjIjoiMi4wIiwibWV0aG9kIjoibiJ9" },
              { type: "receive", time: 3, opcode: 1, data: "not json" },
              { type: "sideways", time: 4, opcode: 1, data: "{}" },
              { type: "send", time: 5, opcode: 2, data: "!!" },
            ],
          },
        ],
      },
    });
    const fs = frames(r.records);
    expect(fs.map((f) => [f.raw, f.encoding ?? null, f.flags ?? null])).toEqual([
      ["/+4=", "base64", ["malformed", "not-utf8"]],
      ['{"jsonrpc":"2.0","method":"n"}', null, null],
      ["not json", null, ["malformed"]],
    ]);
    expect(r.problems).toEqual([
      "entry 1: not an object",
      "entry 2 message 4: not a WebSocket message with type and data",
      "entry 2 message 5: binary frame data is not base64",
    ]);
  });
});

/** A trace with everything a round trip must keep: two connections, CR, LF, non-UTF-8, flags, faults. */
function hardTrace(): TraceScript {
  return new TraceScript(1_769_861_101_250.25, 1.125)
    .spawn(4242, ["demo-agent"])
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .raw(1, "agent->client", '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}\r')
    .raw(1, "agent->client", "Loading model...\nstill loading")
    .prompt(1, 1, "s1", "ünïcödé ✓ 😀", "key-rt-1")
    .inserted(1, 1, "m1", { dropped: true })
    .close(1)
    .open(2)
    .raw(2, "agent->client", '{"jsonrpc":"2.0","method":"early"}')
    .prompt(2, 1, "s1", "ünïcödé ✓ 😀", "key-rt-1")
    .inserted(2, 1, "m1")
    .stderr(4242, "done")
    .exit(4242, 0);
}

function withBinary(sc: TraceScript): TraceRecord[] {
  const rs = [...sc.records];
  const last = rs.at(-1) as TraceRecord;
  rs.push({
    type: "frame",
    seq: last.seq + 1,
    ts: last.ts + 1,
    conn: 2,
    dir: "client->agent",
    raw: "/+4=",
    encoding: "base64",
    flags: ["malformed", "not-utf8"],
  });
  rs.push({
    type: "frame",
    seq: last.seq + 2,
    ts: last.ts + 2,
    conn: 2,
    dir: "client->agent",
    raw: "tail",
    flags: ["malformed", "unterminated"],
  });
  return rs;
}

/** The bytes of a frame. */
const bytesOf = (f: FrameRecord) => (f.encoding === "base64" ? Array.from(base64Bytes(f.raw) ?? []) : f.raw);

describe("trace -> HAR -> trace", () => {
  it.each(["websocket", "http"] as const)(
    "keeps every frame's bytes, order and record (%s style)",
    (style) => {
      const sc = hardTrace();
      const records = withBinary(sc);
      const har = JSON.parse(JSON.stringify(traceToHar(sc.header(), records, style)));
      const back = convertToTrace(JSON.stringify(har, null, 2));
      if ("error" in back) throw new Error(back.error);
      expect(back.format).toBe("har");
      expect(back.problems).toEqual([]);
      expect(frames(back.records).map(bytesOf)).toEqual(frames(records).map(bytesOf));
      expect(back.records).toEqual(records);
      expect(back.header).toEqual({ ...sc.header(), imported: { format: "har", lacks: [] } });
      // The HAR's own fields hold the bytes (the metadata holds none): a changed frame comes back changed.
      const text = JSON.stringify(har).replace("still loading", "STILL LOADING");
      const changed = convertToTrace(text);
      if ("error" in changed) throw new Error(changed.error);
      const changedRaw = frames(changed.records).map((f) => f.raw);
      if (style === "websocket") expect(changedRaw).toContain("Loading model...\nSTILL LOADING");
    },
  );

  it("a hand-edited HAR's bad log records become problems, not records", () => {
    const sc = hardTrace();
    const har = traceToHar(sc.header(), sc.records, "websocket") as {
      log: { _acpRetryInspector: { records: unknown[] } };
    };
    har.log._acpRetryInspector.records.push({ type: "bogus", seq: 99, ts: 1 }, "text");
    const r = convertHar(JSON.parse(JSON.stringify(har)));
    expect(r.problems).toEqual([
      "log record 7: not a trace record (unknown or missing type)",
      "log record 8: not a trace record (unknown or missing type)",
    ]);
    expect(r.records).toEqual(sc.records);
  });

  it("writes HAR that a browser-HAR reader (ignoring our metadata) reads as the same frames in order", () => {
    const sc = hardTrace();
    const har = traceToHar(sc.header(), sc.records, "websocket") as { log: Record<string, unknown> };
    delete har.log._acpRetryInspector;
    const r = convertHar(JSON.parse(JSON.stringify(har)));
    const texts = (rs: readonly TraceRecord[]) => frames(rs).map((f) => [f.conn, f.dir, f.raw]);
    expect(texts(r.records)).toEqual(texts(sc.records));
    expect(utf8Decode(Uint8Array.from([0xf0, 0x9f, 0x98, 0x80]))).toBe("😀");
    expect(traceText(r.header, r.records).split("\n")[0]).toContain('"imported":{"format":"har","lacks":[]}');
  });
});

describe("HAR entries that are not what they say (issue 31)", () => {
  it("reads the 96-byte HAR whose startedDateTime is {toString: 0}, and an object opcode, without a throw", () => {
    const tiny = convertToTrace(
      '{"log":{"version":"1.2","entries":[{"startedDateTime":{"toString":0},"_webSocketMessages":[]}]}}',
    );
    expect("error" in tiny).toBe(false);
    const opcode = convertToTrace(
      JSON.stringify({
        log: {
          entries: [
            { _webSocketMessages: [{ type: "send", opcode: { toString: 0 }, data: "x" }] },
            {
              _webSocketMessages: [
                { type: "send", time: 1, opcode: 1, data: '{"jsonrpc":"2.0","method":"m"}' },
              ],
            },
          ],
        },
      }),
    );
    if ("error" in opcode) throw new Error(opcode.error);
    expect(opcode.records.some((r) => r.type === "frame" && r.raw.includes('"m"'))).toBe(true);
  });

  it("checks our own export's frame metadata and header like any record", () => {
    const har = {
      log: {
        entries: [
          {
            _webSocketMessages: [
              { data: "{}", _acpRetryInspector: { seq: "x", ts: 1, conn: 1, dir: "client->agent" } },
              { data: "{}", _acpRetryInspector: null },
              { data: "{}", _acpRetryInspector: { seq: 2, ts: 2, conn: 1, dir: "client->agent" } },
            ],
          },
        ],
        _acpRetryInspector: {
          header: { format: "acp-retry-inspector-trace", version: 1, agent: 5 },
          records: [],
        },
      },
    };
    const r = convertToTrace(JSON.stringify(har));
    if ("error" in r) throw new Error(r.error);
    expect(r.records.map((x) => x.seq)).toEqual([2]);
    expect(r.problems.some((p) => p.includes("metadata is wrong"))).toBe(true);
    expect(r.header.agent).toBeUndefined();
  });
});
