import { describe, expect, it } from "vitest";
import { mixedTrace } from "../analyzer/testing/mixed-trace.js";
import { decodeRecord } from "./codec.js";
import {
  checkRecord,
  describeInvalid,
  InvalidRecord,
  isInvalidRecord,
  PREVIEW_CHARS,
} from "./record-check.js";

const frame = { type: "frame", seq: 3, ts: 10.5, conn: 1, dir: "client->agent", raw: "{}" };
const span = {
  type: "agent-span",
  seq: 4,
  ts: 11,
  traceId: "0af7651916cd43dd8448eb211c80319c",
  spanId: "b7ad6b7169203331",
  parentSpanId: "00f067aa0ba902b7",
  name: "prompt turn",
  kind: 1,
  startMs: 1.5,
  endMs: 9,
  attributes: { n: 1, s: "x", b: true, list: ["a", 2, false] },
  status: "error",
  statusMessage: "boom",
  service: "agent",
  conn: 1,
  truncated: true,
};

describe("checkRecord", () => {
  it("passes every record the tap and the test traces write, unchanged (the same object)", () => {
    for (const r of mixedTrace(300, 5).records) expect(checkRecord(r)).toBe(r);
    expect(checkRecord(span)).toBe(span);
    const {
      parentSpanId: _p,
      kind: _k,
      attributes: _a,
      status: _s,
      statusMessage: _m,
      service: _v,
      conn: _c,
      truncated: _t,
      ...bare
    } = span;
    expect(checkRecord(bare)).toBe(bare);
  });

  it.each([
    [{ ...frame, raw: 42 }, "raw", "must be a string, got number"],
    [{ ...frame, raw: { a: 1 } }, "raw", "must be a string, got object"],
    [{ ...frame, raw: null }, "raw", "must be a string, got null"],
    [{ ...frame, conn: undefined }, "conn", "missing"],
    [{ ...frame, conn: 0 }, "conn", "must be a positive integer, got 0"],
    [{ ...frame, conn: "1" }, "conn", 'must be a positive integer, got string "1"'],
    [
      { ...frame, dir: "sideways" },
      "dir",
      'must be "client->agent" or "agent->client", got string "sideways"',
    ],
    [{ ...frame, flags: ["malformed", "evil"] }, "flags[1]", 'is not a frame flag: string "evil"'],
    [{ ...frame, flags: "malformed" }, "flags", "must be an array of frame flags, got string"],
    [{ ...frame, bytes: -1 }, "bytes", "must be a non-negative integer, got -1"],
    [{ ...frame, dropped: false }, "dropped", "must be true, got boolean"],
    [{ ...frame, encoding: "hex" }, "encoding", 'must be "base64", got string "hex"'],
    [{ ...frame, seq: 1.5 }, "seq", "must be a positive integer, got 1.5"],
    [{ ...frame, seq: 2 ** 53 + 2 }, "seq", `must be a positive integer, got ${2 ** 53 + 2}`],
    [{ ...frame, seq: "NaN" }, "seq", 'must be a positive integer, got string "NaN"'],
    [{ ...frame, ts: Number.POSITIVE_INFINITY }, "ts", "must be a finite number, got Infinity"],
    [{ ...frame, type: "frames" }, "type", 'is not a record type: string "frames"'],
    [
      { type: "agent-spawn", seq: 1, ts: 1, pid: 7, command: ["a", 3] },
      "command[1]",
      "must be a string, got number",
    ],
    [
      { type: "agent-exit", seq: 1, ts: 1, pid: 7, code: "0", signal: null },
      "code",
      'must be an integer or null, got string "0"',
    ],
    [{ type: "agent-exit", seq: 1, ts: 1, pid: 7, code: 0 }, "signal", "missing"],
    [{ type: "agent-stderr", seq: 1, ts: 1, text: ["x"] }, "text", "must be a string, got array"],
    [
      { type: "conn-open", seq: 1, ts: 1, conn: 1, transport: 5 },
      "transport",
      "must be a string, got number",
    ],
    [{ type: "conn-close", seq: 1, ts: 1, conn: 1, reason: 7 }, "reason", "must be a string, got number"],
    [
      { type: "fault", seq: 1, ts: 1, action: "drop", frameSeq: -2 },
      "frameSeq",
      "must be a non-negative integer, got -2",
    ],
    [
      { ...span, traceId: "0AF7651916CD43DD8448EB211C80319C" },
      "traceId",
      'must be 32 lowercase hex digits, not all zero, got string "0AF7651916CD43DD8448EB21…"',
    ],
    [
      { ...span, traceId: "0".repeat(32) },
      "traceId",
      'must be 32 lowercase hex digits, not all zero, got string "000000000000000000000000…"',
    ],
    [{ ...span, spanId: undefined }, "spanId", "missing"],
    [
      { ...span, parentSpanId: "abc" },
      "parentSpanId",
      'must be 16 lowercase hex digits, not all zero, got string "abc"',
    ],
    [{ ...span, name: 3 }, "name", "must be a string, got number"],
    [{ ...span, kind: 6 }, "kind", "must be an integer 0 to 5, got 6"],
    [{ ...span, startMs: "1" }, "startMs", 'must be a finite number, got string "1"'],
    [{ ...span, endMs: undefined }, "endMs", "missing"],
    [{ ...span, attributes: [] }, "attributes", "must be an object, got array"],
    [
      { ...span, attributes: { deep: { x: 1 } } },
      "attributes",
      '"deep" must be a string, number, boolean or a list of them, got object',
    ],
    [
      { ...span, attributes: { l: [[1]] } },
      "attributes",
      '"l" must be a string, number, boolean or a list of them, got array',
    ],
    [{ ...span, status: "unset" }, "status", 'must be "ok" or "error", got string "unset"'],
    [{ ...span, service: 1 }, "service", "must be a string, got number"],
    [{ ...span, conn: 0 }, "conn", "must be a positive integer, got 0"],
    [{ ...span, truncated: false }, "truncated", "must be true, got boolean"],
    [
      { type: "note", seq: 1, ts: 1, level: "fatal", text: "x" },
      "level",
      'must be "info" or "warn" or "error", got string "fatal"',
    ],
  ])("flags %j: %s %s", (value, field, reason) => {
    const c = checkRecord(value);
    expect(isInvalidRecord(c)).toBe(true);
    expect((c as InvalidRecord).faults).toContainEqual({ field, reason });
  });

  it("names every wrong field of one record, and keeps its seq only when the seq is valid", () => {
    const c = checkRecord({ type: "frame", seq: 9, ts: 1, raw: 1, dir: 2 }) as InvalidRecord;
    expect(c.faults.map((f) => f.field)).toEqual(["conn", "dir", "raw"]);
    expect(c.seq).toBe(9);
    expect(c.recordType).toBe("frame");
    expect(describeInvalid(c)).toBe(
      'invalid frame record seq 9: conn missing; dir must be "client->agent" or "agent->client", got 2; raw must be a string, got number',
    );
    expect((checkRecord({ ...frame, seq: -1, raw: 1 }) as InvalidRecord).seq).toBeNull();
  });

  it("never throws, whatever it is given, and keeps a short preview", () => {
    const cyclic: Record<string, unknown> = { type: "frame" };
    cyclic.self = cyclic;
    for (const v of [undefined, null, 0, "x", [], [frame], () => 1, Symbol("s"), 10n, cyclic]) {
      const c = checkRecord(v);
      expect(c).toBeInstanceOf(InvalidRecord);
      expect((c as InvalidRecord).preview.length).toBeLessThanOrEqual(PREVIEW_CHARS + 1);
    }
    const big = checkRecord({ ...frame, raw: 1, junk: "x".repeat(10_000) }) as InvalidRecord;
    expect(big.preview).toHaveLength(PREVIEW_CHARS + 1);
  });

  it("cannot be fooled by a record that carries an `invalid` field", () => {
    const r = { ...frame, invalid: true, faults: [] };
    expect(checkRecord(r)).toBe(r);
    expect(isInvalidRecord(checkRecord(r))).toBe(false);
  });

  it("is what decodeRecord runs: a wrong field makes an invalid entry, not a record", () => {
    expect(decodeRecord(JSON.stringify({ ...frame, raw: 42 }))).toMatchObject({
      kind: "invalid",
      invalid: { seq: 3, faults: [{ field: "raw", reason: "must be a string, got number" }] },
    });
    expect(decodeRecord(JSON.stringify(frame))).toEqual({ kind: "record", record: frame });
  });
});
