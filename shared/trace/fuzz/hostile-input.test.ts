/**
 * Issue 31's fuzz suite: every parser and walker of wire or file data, fed hostile values (any JSON,
 * `__proto__`/`constructor`/`toString` objects, nesting to 10^5, bad text), never throws and keeps
 * what it cannot read flagged. Seeded and bounded (testing/hostile-values.ts): a few seconds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import { canonicalJson } from "../../analyzer/prompt-content.js";
import { decodeTapMessage } from "../../hub/tap-wire.js";
import { TraceSpans } from "../../otel/trace-spans.js";
import { decodeHeader, parseRecordLine } from "../codec.js";
import { previewFrame } from "../frame-preview.js";
import { checkHeader } from "../header-check.js";
import { convertToTrace, traceText } from "../interchange/convert.js";
import { traceToHar } from "../interchange/har.js";
import { jsonText } from "../json-depth.js";
import type { TraceHeader, TraceRecord } from "../record.js";
import { checkRecord, isInvalidRecord } from "../record-check.js";
import { redactTrace } from "../redact.js";
import { DEEPEST, FUZZ, hostileText, hostileValue, nestedText } from "../testing/hostile-values.js";

const HEADER: TraceHeader = {
  format: "acp-retry-inspector-trace",
  version: 1,
  tool: "fuzz",
  startedAt: "2026-01-01T00:00:00.000Z",
};
const RECORD_TYPES = [
  "frame",
  "conn-open",
  "conn-close",
  "agent-spawn",
  "agent-exit",
  "agent-stderr",
  "fault",
  "note",
  "agent-span",
];
const FIELDS = [
  "conn",
  "dir",
  "raw",
  "encoding",
  "flags",
  "bytes",
  "pid",
  "command",
  "code",
  "signal",
  "text",
  "transport",
  "reason",
  "action",
  "level",
  "name",
  "attributes",
  "statusMessage",
  "traceId",
  "spanId",
  "startMs",
  "endMs",
];

/** A record-shaped object: a type, seq and ts, and a few fields with hostile values. */
const recordLike = fc
  .tuple(
    fc.constantFrom(...RECORD_TYPES),
    fc.oneof(fc.integer({ min: 1, max: 50 }), hostileValue()),
    fc.dictionary(fc.constantFrom(...FIELDS), hostileValue(), { maxKeys: 5 }),
  )
  .map(([type, seq, fields]) => ({ type, seq, ts: 1, ...fields }) as Record<string, unknown>);

/** A JSON-RPC frame whose params, result or id are hostile text. */
const hostileFrame = fc
  .tuple(
    fc.constantFrom("session/prompt", "session/new", "session/update", "initialize"),
    hostileText(),
    fc.constantFrom("client->agent" as const, "agent->client" as const),
    fc.boolean(),
  )
  .map(([method, inner, _dir, answer]) =>
    answer
      ? `{"jsonrpc":"2.0","id":1,"result":{"messageId":${inner}}}`
      : `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"sessionId":"s","idempotencyKey":"k","prompt":${inner},"rawInput":${inner},"headers":${inner}}}`,
  );

/** Every walker the tap, the hub, the analyzer, the exports and OTLP run over a trace. */
function walkAll(header: TraceHeader, records: readonly TraceRecord[]): void {
  const analyzer = new Analyzer();
  analyzer.ingestHeader(header);
  const spans = new TraceSpans(header, { includePrompts: false });
  for (const r of records) {
    analyzer.ingest(r);
    spans.ingest(r);
    if (r.type === "frame") previewFrame(r, 64);
  }
  analyzer.takeChanges();
  spans.take();
  spans.finish();
  redactTrace(header, records, { full: false });
  traceText(header, records);
  traceToHar(header, records, "http");
}

describe("fuzz: hostile input never throws (issue 31)", () => {
  it("records: any record-shaped value is a record or a flagged entry, and every walker takes the records", () => {
    fc.assert(
      fc.property(fc.array(recordLike, { maxLength: 6 }), (values) => {
        const checked = values.map((v) => checkRecord(v));
        const line = parseRecordLine(jsonText(values[0] ?? null) ?? "null");
        expect(line).toBeDefined();
        walkAll(
          HEADER,
          checked.filter((c): c is TraceRecord => !isInvalidRecord(c)),
        );
      }),
      FUZZ,
    );
  });

  it("frames: hostile params at any depth pass the analyzer, OTLP mapping, redaction and previews", () => {
    fc.assert(
      fc.property(fc.array(hostileFrame, { minLength: 1, maxLength: 4 }), (raws) => {
        const records: TraceRecord[] = raws.map((raw, i) => ({
          type: "frame",
          seq: i + 1,
          ts: i + 1,
          conn: 1,
          dir: i % 2 === 0 ? "client->agent" : "agent->client",
          raw,
        }));
        walkAll(HEADER, records);
        let parsed: unknown;
        try {
          parsed = JSON.parse(raws[0] as string);
        } catch {
          parsed = raws[0];
        }
        expect(typeof canonicalJson(parsed)).toBe("string");
      }),
      { ...FUZZ, numRuns: 60 },
    );
  });

  it("headers and hello: any header value is a header (bad fields dropped and named) or a problem", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            "tool",
            "startedAt",
            "agent",
            "transport",
            "name",
            "tapPid",
            "redacted",
            "imported",
            "x",
          ),
          hostileValue(),
          { maxKeys: 4 },
        ),
        (fields) => {
          const value = { ...HEADER, ...fields };
          const checked = checkHeader(value);
          if ("header" in checked) {
            walkAll(checked.header, []);
            expect(decodeHeader(jsonText(checked.header) as string).kind).toBe("header");
          }
          const hello = decodeTapMessage(
            jsonText({ t: "hello", v: 1, tapId: "tap-0001", header: value }) ?? "",
          );
          if (typeof hello !== "string" && hello.t === "hello") checkHeader(hello.header);
        },
      ),
      FUZZ,
    );
  });

  it("foreign formats: Zed, sacp, ACP-inspector and HAR files of hostile entries convert, bad entries kept as notes", () => {
    const zed = hostileValue().map(
      (v) =>
        `[{"_direction":"outgoing","_type":"request","id":1,"method":"m","params":${jsonText(v)}},${jsonText(v)}]`,
    );
    const sacp = hostileValue().map(
      (v) =>
        `{"type":"request","from":"client","to":"agent","ts":1,"id":1,"method":"m","params":${jsonText(v)}}\n${jsonText(v)}`,
    );
    const inspector = hostileValue().map(
      (v) =>
        `{"ts":1,"direction":"out","json":${JSON.stringify(jsonText(v))}}\n{"ts":${jsonText(v)},"direction":${jsonText(v)},"json":"{}"}`,
    );
    const har = fc
      .tuple(hostileValue(), hostileValue())
      .map(
        ([a, b]) =>
          `{"log":{"version":"1.2","entries":[{"startedDateTime":${jsonText(a)},"time":${jsonText(b)},"_webSocketMessages":[{"type":"send","opcode":${jsonText(a)},"data":"x","time":${jsonText(b)}},{"type":"receive","data":${jsonText(b)}}]},${jsonText(a)},{"request":{"method":"POST","url":${jsonText(b)},"postData":{"text":"{\\"jsonrpc\\":\\"2.0\\"}"},"headers":${jsonText(a)}},"response":{"content":{"mimeType":"text/event-stream","text":${jsonText(b)}}}}],"_acpRetryInspector":${jsonText(a)}}}`,
      );
    fc.assert(
      fc.property(fc.oneof(zed, sacp, inspector, har), (text) => {
        const r = convertToTrace(text);
        if ("error" in r) return;
        for (const rec of r.records) expect(isInvalidRecord(checkRecord(rec))).toBe(false);
        walkAll(r.header, r.records);
      }),
      { ...FUZZ, numRuns: 100 },
    );
  });

  it("a frame nested 100,000 deep, as arrays and as objects, passes every walker", () => {
    for (const kind of ["array", "object"] as const) {
      const inner = nestedText(DEEPEST, kind);
      const raw = `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":${inner},"rawInput":${inner}}}`;
      walkAll(HEADER, [{ type: "frame", seq: 1, ts: 1, conn: 1, dir: "client->agent", raw }]);
      expect(
        checkRecord({ type: "note", seq: 1, ts: 1, level: "info", text: JSON.parse(inner) }),
      ).toBeDefined();
    }
  });

  it("a HAR and a Zed log nested 100,000 deep convert without a throw", () => {
    const deep = nestedText(DEEPEST);
    for (const text of [
      `{"log":{"entries":[{"_webSocketMessages":[{"type":"send","data":${JSON.stringify(`{"jsonrpc":"2.0","id":1,"result":${deep}}`)}}]},${deep}]}}`,
      `[{"_direction":"outgoing","_type":"request","id":1,"method":"m","params":${deep}}]`,
    ]) {
      const r = convertToTrace(text);
      if ("error" in r) throw new Error(r.error);
      walkAll(r.header, r.records);
    }
  });
});
