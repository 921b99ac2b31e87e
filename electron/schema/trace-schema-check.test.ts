import { describe, expect, it } from "vitest";
import type { Direction, FrameRecord } from "../../shared/trace/record.js";
import { schemaSummaryText } from "./schema-report-text.js";
import { TraceSchemaCheck } from "./trace-schema-check.js";

const C2A: Direction = "client->agent";
const A2C: Direction = "agent->client";

/** A trace of hand-made frames on connection 1, seqs from 1. */
function frames(...msgs: [Direction, unknown][]): FrameRecord[] {
  return msgs.map(([dir, msg], i) => ({
    type: "frame",
    seq: i + 1,
    ts: i,
    conn: 1,
    dir,
    raw: JSON.stringify(msg),
  }));
}

function check(records: FrameRecord[]): TraceSchemaCheck {
  const c = new TraceSchemaCheck();
  for (const r of records) c.ingest(r);
  return c;
}

const initV2 = (): [Direction, unknown][] => [
  [
    C2A,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 2, capabilities: {}, info: { name: "c", version: "1" } },
    },
  ],
  [
    A2C,
    {
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: 2, capabilities: { session: {} }, info: { name: "a", version: "1" } },
    },
  ],
];
const initV1 = (): [Direction, unknown][] => [
  [
    C2A,
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
  ],
  [A2C, { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }],
];
const prompt = (key: unknown, id = 1): [Direction, unknown] => [
  C2A,
  {
    jsonrpc: "2.0",
    id,
    method: "session/prompt",
    params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }], idempotencyKey: key },
  },
];

describe("TraceSchemaCheck", () => {
  it("passes a valid v2 handshake, keyed prompt and answer", () => {
    const c = check(
      frames(...initV2(), prompt("k-1"), [A2C, { jsonrpc: "2.0", id: 1, result: { messageId: "m1" } }]),
    );
    expect(c.reports).toEqual([]);
    expect(c.summary()).toMatchObject({ checked: 4, framesWithViolations: 0 });
    expect(c.summary().notes[0]).toContain("idempotencyKey");
  });

  it("with a bound checks the first frames only and counts the rest as past it, in the summary line too", () => {
    const records = frames(...initV2(), prompt("k-1"), [A2C, { jsonrpc: "2.0", id: 1, result: {} }]);
    const bounded = new TraceSchemaCheck("count", 3);
    for (const r of records) bounded.ingest(r);
    // the answer without its messageId is the 4th frame: past the bound, not checked, not counted as fine
    expect(bounded.summary()).toMatchObject({ checked: 3, framesWithViolations: 0, framesPastBound: 1 });
    expect(schemaSummaryText(bounded.summary())).toContain("1 later frames not checked");
    const whole = new TraceSchemaCheck("count");
    for (const r of records) whole.ingest(r);
    expect(whole.summary()).toMatchObject({ checked: 4, framesWithViolations: 1 });
    expect(whole.summary()).not.toHaveProperty("framesPastBound");
  });

  it("flags a v2 prompt answer without messageId, with its path and the schema's words", () => {
    const c = check(
      frames(...initV2(), prompt("k"), [A2C, { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }]),
    );
    expect(c.reports).toHaveLength(1);
    const r = c.reports[0];
    expect(r).toMatchObject({
      seq: 4,
      method: "session/prompt",
      kind: "result",
      type: "PromptResponse",
      dir: A2C,
    });
    expect(r?.schema).toContain("v2");
    expect(r?.violations).toContainEqual({
      path: "/result",
      message: "must have required property 'messageId'",
    });
  });

  it("the same v1-style answer passes under a negotiated v1", () => {
    const c = check(
      frames(
        ...initV1(),
        [
          C2A,
          {
            jsonrpc: "2.0",
            id: 1,
            method: "session/prompt",
            params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] },
          },
        ],
        [A2C, { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }],
      ),
    );
    expect(c.reports.filter((r) => r.violations.length > 0)).toEqual([]);
  });

  it("counts the key in code points: 255 astral characters (510 UTF-16 units) pass, 256 characters fail, empty fails", () => {
    const astral = "😀".repeat(255);
    expect(astral.length).toBe(510);
    expect(check(frames(...initV2(), prompt(astral))).reports).toEqual([]);
    expect(check(frames(...initV2(), prompt("a".repeat(255)))).reports).toEqual([]);
    const long = check(frames(...initV2(), prompt("a".repeat(256)))).reports[0];
    expect(long?.violations).toContainEqual({
      path: "/params/idempotencyKey",
      message: "must NOT have more than 255 characters",
    });
    const empty = check(frames(...initV2(), prompt(""))).reports[0];
    expect(empty?.violations).toContainEqual({
      path: "/params/idempotencyKey",
      message: "must NOT have fewer than 1 characters",
    });
    expect(check(frames(...initV2(), prompt(7))).reports[0]?.violations[0]?.path).toBe(
      "/params/idempotencyKey",
    );
    expect(check(frames(...initV2(), prompt(null))).reports).toEqual([]);
  });

  it("in v1 the key is an undeclared property: marked as an extension, not failed", () => {
    const c = check(frames(...initV1(), prompt("k")));
    expect(c.reports).toHaveLength(1);
    expect(c.reports[0]?.violations).toEqual([]);
    expect(c.reports[0]?.extensions).toEqual([{ path: "/params/idempotencyKey", kind: "undeclared" }]);
  });

  it("marks _meta and undeclared properties (also inside a content block) without failing", () => {
    const c = check(
      frames(...initV2(), [
        C2A,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "session/prompt",
          params: {
            sessionId: "s1",
            prompt: [{ type: "text", text: "hi", mood: "x" }],
            _meta: { a: 1 },
            extra: true,
          },
        },
      ]),
    );
    expect(c.reports[0]?.violations).toEqual([]);
    expect(c.reports[0]?.extensions).toEqual(
      expect.arrayContaining([
        { path: "/params/_meta", kind: "meta" },
        { path: "/params/extra", kind: "undeclared" },
        { path: "/params/prompt/0/mood", kind: "undeclared" },
      ]),
    );
    expect(c.reports[0]?.extensions).toHaveLength(3);
    expect(c.summary().framesWithExtensions).toBe(1);
  });

  it("names the failing field of a content block, not every wrong branch of the union", () => {
    const c = check(
      frames(...initV2(), [
        C2A,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "session/prompt",
          params: { sessionId: "s1", prompt: [{ type: "text" }] },
        },
      ]),
    );
    const v = c.reports[0]?.violations ?? [];
    expect(v).toContainEqual({ path: "/params/prompt/0", message: "must have required property 'text'" });
    expect(v.some((x) => x.message.includes("'data'"))).toBe(false);
  });

  it("checks notifications and error objects by their own types", () => {
    const c = check(
      frames(
        ...initV2(),
        [
          A2C,
          {
            jsonrpc: "2.0",
            method: "session/update",
            params: {
              sessionId: "s1",
              update: {
                sessionUpdate: "agent_message_chunk",
                messageId: "m0",
                content: { type: "text", text: "x" },
              },
            },
          },
        ],
        [A2C, { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1" } }],
        prompt("k", 5),
        [A2C, { jsonrpc: "2.0", id: 5, error: { code: "bad", message: "x" } }],
      ),
    );
    expect(c.reports.map((r) => [r.seq, r.kind, r.type])).toEqual([
      [4, "notification", "UpdateSessionNotification"],
      [6, "error", "Error"],
    ]);
    expect(c.reports[0]?.violations).toContainEqual({
      path: "/params",
      message: "must have required property 'update'",
    });
    expect(c.reports[1]?.violations[0]?.path).toBe("/error/code");
  });

  it("matches the inspector's forwarded copy of an answer (client id, `replaces` the retry's id) to its request", () => {
    const records = frames(
      ...initV2(),
      prompt("k", 3),
      [
        C2A,
        {
          jsonrpc: "2.0",
          id: "r1",
          method: "session/prompt",
          params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "k" },
        },
      ],
      [A2C, { jsonrpc: "2.0", id: 3, result: { messageId: "m1" } }],
      [A2C, { jsonrpc: "2.0", id: "r1", result: { messageId: "m1" } }],
    );
    records.push({
      type: "frame",
      seq: 7,
      ts: 7,
      conn: 1,
      dir: A2C,
      raw: JSON.stringify({ jsonrpc: "2.0", id: 3, result: {} }),
      origin: "inspector",
      replaces: "r1",
    });
    const c = check(records);
    expect(c.reports.map((r) => [r.seq, r.method, r.kind, r.violations[0]?.message])).toEqual([
      [7, "session/prompt", "result", "must have required property 'messageId'"],
    ]);
    expect(c.summary().notChecked).toBe(0);
  });

  it("without an initialize checks against v1 and says so", () => {
    const c = check(frames([A2C, { jsonrpc: "2.0", id: 1, result: {} }], prompt("k")));
    expect(c.reports.at(-1)?.schema).toBe("v1 (version unknown: v1 assumed)");
    expect(c.summary().notes.join("\n")).toContain(
      "no initialize seen on connection(s) #1: checked against v1",
    );
  });

  it("flags a frame nested past the bound instead of walking it, and an unknown method as not checked", () => {
    const deep = `{"jsonrpc":"2.0","method":"session/update","params":${"[".repeat(600)}${"]".repeat(600)}}`;
    const c = new TraceSchemaCheck();
    c.ingest({ type: "frame", seq: 1, ts: 0, conn: 1, dir: A2C, raw: deep });
    c.ingest({
      type: "frame",
      seq: 2,
      ts: 0,
      conn: 1,
      dir: C2A,
      raw: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "_x/thing" }),
    });
    expect(c.reports.map((r) => r.notChecked)).toEqual([
      "nested deeper than 512; not checked",
      "method not in the v1 schema; not checked",
    ]);
    expect(c.summary()).toMatchObject({ checked: 0, notChecked: 2 });
  });
});
