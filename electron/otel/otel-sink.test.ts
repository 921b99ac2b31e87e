import { describe, expect, it } from "vitest";
import { mixedTrace } from "../../shared/analyzer/testing/mixed-trace.js";
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import type { SpanOp } from "../../shared/otel/span-description.js";
import { TraceSpans } from "../../shared/otel/trace-spans.js";
import { OtelSink } from "./otel-sink.js";
import type { SpanExport } from "./span-export.js";
import { redactSpanOps } from "./span-redaction.js";
import { TapSkipFilter } from "./tap-skip-filter.js";

const A2C = "agent->client" as const;
const S = "sess-1";
const KEY = "0f0e7a52-5b7e-4a44-9d2c-6a3c1d2e9f10";

/**
 * The spans of every record analysed, none skipped, taken every `perTurn` records (the steps' order
 * follows the batches): what the tap's skipping must not change.
 */
function everyFrame(t: TraceScript, perTurn = 1): SpanOp[] {
  const spans = new TraceSpans(t.header(), { includePrompts: false }, true);
  const ops: SpanOp[] = [];
  t.records.forEach((r, i) => {
    spans.ingest(r);
    if ((i + 1) % perTurn === 0) ops.push(...spans.take());
  });
  ops.push(...spans.take(), ...spans.finish());
  return redactSpanOps(ops, false);
}

/** The export's end of the sink (the SDK's place): it keeps the steps; without `analyze`, the sink runs the analysis itself. */
function collectingExport(ops: SpanOp[]): SpanExport {
  const counts = { ended: 0, sent: 0, failed: 0, dropped: 0, firstError: null };
  return {
    target: { url: "http://127.0.0.1:1/v1/traces", protocol: "http/protobuf", source: "--otlp" },
    counts,
    steps: () => ({ apply: (o) => ops.push(...o) }),
    close: async () => counts,
    describe: () => "",
    unfinished: false,
  };
}

/** Feeds the trace through the tap's sink, `perTurn` records per event-loop turn: the steps, and how many frames the tap's thread skipped. */
async function throughTheSink(t: TraceScript, perTurn: number): Promise<{ ops: SpanOp[]; skipped: number }> {
  const ops: SpanOp[] = [];
  const sink = new OtelSink(t.header(), Promise.resolve(collectingExport(ops)), { includePrompts: false });
  const filter = new TapSkipFilter();
  let skipped = 0;
  for (let i = 0; i < t.records.length; i++) {
    const r = t.records[i]!;
    if (filter.skippable(r)) skipped++;
    sink.write(r);
    if ((i + 1) % perTurn === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await sink.close();
  return { ops, skipped };
}

describe("OtelSink", () => {
  it("plans the same spans when the tap's thread skips the Agent's notifications and batches per turn", async () => {
    for (const seed of [1, 2, 3]) {
      const t = mixedTrace(300, seed);
      for (const perTurn of [1, 7, 1_000_000]) {
        const all = everyFrame(t, perTurn);
        expect(all.length).toBeGreaterThan(300);
        const tap = await throughTheSink(t, perTurn);
        expect(tap.skipped).toBeGreaterThan(20);
        expect(tap.ops).toEqual(all);
      }
    }
  });

  it("never skips a chunk that leaks a key the Client sent in the same turn", async () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `key is ${KEY}!` } },
      })
      .inserted(1, 1, "m1");
    const tap = await throughTheSink(t, 1_000_000);
    expect(tap.skipped).toBe(0);
    expect(tap.ops.find((o) => o.op === "close")).toMatchObject({
      attributes: { "acp.verdict": "key-leaked" },
    });
    expect(tap.ops).toEqual(everyFrame(t, 1_000_000));
  });

  it("ends a pending attempt at the last record's time when the trace ends on skipped chunks", async () => {
    const t = new TraceScript().prompt(1, 1, S, "hi", KEY);
    for (let i = 0; i < 5; i++)
      t.notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `part ${i}` } },
      });
    const tap = await throughTheSink(t, 1);
    expect(tap.skipped).toBe(5);
    const last = t.records[t.records.length - 1]!.ts;
    expect(tap.ops.filter((o) => o.op === "close").map((o) => o.op === "close" && o.endTime)).toContain(last);
    expect(tap.ops).toEqual(everyFrame(t));
  });
});

describe("TapSkipFilter", () => {
  const chunk = (text: string) =>
    new TraceScript().notify(1, A2C, "session/update", {
      sessionId: S,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
    }).records[0]!;
  const client = (raw: string) =>
    ({ type: "frame", seq: 1, ts: 1, conn: 1, dir: "client->agent", raw }) as const;

  it("learns a key from a Client frame whose property name is escaped", () => {
    const f = new TapSkipFilter();
    f.skippable(
      client(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"idempotency\\u004bey":"${KEY}"}}`),
    );
    expect(f.skippable(chunk(`leak ${KEY}`))).toBe(false);
    expect(f.skippable(chunk("plain text"))).toBe(true);
  });

  it("learns a key written with escapes inside its string", () => {
    const f = new TapSkipFilter();
    const escaped = `${KEY.slice(0, 10)}\\/${KEY.slice(10)}`;
    f.skippable(client(`{"params":{"idempotencyKey" : "${escaped}"}}`));
    expect(f.skippable(chunk(`leak ${KEY.slice(0, 10)}/${KEY.slice(10)}`))).toBe(false);
  });

  it("skips nothing more after a Client batch or a base64 Client frame", () => {
    const batch = new TapSkipFilter();
    batch.skippable(client(`[{"params":{"idempotency\\u004bey":"${KEY}"}}]`));
    expect(batch.skippable(chunk("plain text"))).toBe(false);
    const encoded = new TapSkipFilter();
    encoded.skippable({ ...client("AAEC"), encoding: "base64" });
    expect(encoded.skippable(chunk("plain text"))).toBe(false);
  });
});
