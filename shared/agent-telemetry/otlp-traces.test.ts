/**
 * The OTLP traces decoder against what the official OpenTelemetry JS SDK encodes (its own
 * protobuf and JSON serializers, the ones its OTLP/HTTP exporters send), and against bodies
 * that are not OTLP: a clear `OtlpDecodeError`, never another throw.
 */
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { decodeTracesJson, decodeTracesProtobuf, OtlpDecodeError, SPAN_LIMITS } from "./otlp-traces.js";

function sdkSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "unit-agent" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("t");
  const turn = tracer.startSpan("prompt turn");
  const child = tracer.startSpan(
    "insert",
    { attributes: { n: 3, ok: true, tags: ["a", "b"], x: 1.5 } },
    trace.setSpan(context.active(), turn),
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: "disk full" });
  child.end();
  turn.setAttribute("long", "y".repeat(SPAN_LIMITS.chars + 10));
  turn.end();
  return exporter.getFinishedSpans();
}

describe("decodeTraces", () => {
  const spans = sdkSpans();
  const proto = ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
  const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans) as Uint8Array);

  it.each([
    ["protobuf", () => decodeTracesProtobuf(proto)],
    ["JSON", () => decodeTracesJson(json)],
  ])("reads the SDK's %s the same way: ids, parent, times, attributes, status, service", (_, decode) => {
    const got = decode();
    expect(got.map((s) => s.name)).toEqual(["insert", "prompt turn"]);
    const [insert, turn] = got as [(typeof got)[0], (typeof got)[0]];
    const sdkTurn = spans[1];
    expect(turn.traceId).toBe(sdkTurn?.spanContext().traceId);
    expect(turn.spanId).toBe(sdkTurn?.spanContext().spanId);
    expect(turn.parentSpanId).toBeUndefined();
    expect(insert.parentSpanId).toBe(turn.spanId);
    expect(insert.traceId).toBe(turn.traceId);
    expect(insert.attributes).toEqual({ n: 3, ok: true, tags: ["a", "b"], x: 1.5 });
    expect(insert).toMatchObject({
      status: "error",
      statusMessage: "disk full",
      service: "unit-agent",
      kind: 1,
    });
    const [s, ns] = sdkTurn?.startTime ?? [0, 0];
    expect(turn.startMs).toBeCloseTo(s * 1000 + ns / 1e6, 3);
    expect(turn.endMs).toBeGreaterThanOrEqual(turn.startMs);
    expect(turn.truncated).toBe(true);
    expect(String(turn.attributes?.long)).toHaveLength(SPAN_LIMITS.chars + 1);
  });

  it("refuses what is not an OTLP traces request with a reason", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => decodeTracesProtobuf(proto.subarray(0, proto.length - 3)), /protobuf: /],
      [() => decodeTracesProtobuf(Uint8Array.from([0x0a, 0x80])), /truncated varint/],
      [() => decodeTracesProtobuf(Uint8Array.from([0x0b])), /wire type 3/],
      [() => decodeTracesJson("[1"), /the body is not JSON/],
      [() => decodeTracesJson("[]"), /must be a JSON object/],
      [() => decodeTracesJson('{"resourceSpans":{}}'), /resourceSpans must be an array/],
      [
        () =>
          decodeTracesJson('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"ab","spanId":"cd"}]}]}]}'),
        /traceId must be 16 bytes/,
      ],
    ];
    for (const [run, why] of cases) {
      let err: unknown;
      try {
        run();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(OtlpDecodeError);
      expect((err as Error).message).toMatch(why);
    }
    expect(decodeTracesJson("{}")).toEqual([]);
  });
});
