import { describe, expect, it } from "vitest";
import { OPERATION_NAMES, parseOperationCall } from "./operations.js";

describe("parseOperationCall", () => {
  it("accepts every operation with well-formed arguments", () => {
    const good: Record<string, unknown> = {
      armFault: { spec: { action: "kill-agent" } },
      disarmFault: { id: "r1-3f9a" },
      clearFaults: undefined,
      listTraces: {},
      listTaps: undefined,
      readTrace: { id: "20260101T000000Z-1a2b3c4d" },
      readTracePreviews: { id: "20260101T000000Z-1a2b3c4d" },
      readFrame: { trace: "20260101T000000Z-1a2b3c4d", seq: "12" },
      checkSchema: { id: "20260101T000000Z-1a2b3c4d" },
      hubStatus: undefined,
      demo: { command: { op: "send", text: "hi", withKey: true } },
      conformanceStart: { request: { agent: "demo-naive", only: ["keys-private"] } },
      conformanceCancel: {},
      conformanceStressStart: { request: { agent: "demo-naive", runs: 4, seed: 7 } },
      conformanceStressCancel: {},
      listFaults: undefined,
      importTrace: { text: '{"type":"header"}\n' },
      demoStatus: {},
      conformanceStatus: undefined,
      replay: { traceId: "20260101T000000Z-1a2b3c4d", agentId: "argv-1" },
    };
    expect(parseOperationCall("readFrame", { trace: "t1", seq: 0 })).toEqual({
      error: "readFrame: seq must be a positive integer",
    });
    expect(parseOperationCall("readFrame", { trace: "../x", seq: 1 })).toMatchObject({
      error: expect.any(String),
    });
    for (const op of OPERATION_NAMES) {
      expect(parseOperationCall(op, good[op])).toMatchObject({ op });
    }
    expect(parseOperationCall("demo", { command: { op: "spawn" } })).toHaveProperty("error");
    expect(parseOperationCall("conformanceStart", { request: { command: ["sh"] } })).toHaveProperty("error");
    // A replay names a trace and an agent choice by id, never a path or a command.
    expect(parseOperationCall("replay", { traceId: "../x", agentId: "argv-1" })).toHaveProperty("error");
    expect(
      parseOperationCall("replay", { traceId: "20260101T000000Z-1a2b3c4d", agentId: ["sh"] }),
    ).toHaveProperty("error");
  });

  it("rejects unknown names, including inherited object keys", () => {
    expect(parseOperationCall("constructor", {})).toHaveProperty("error");
    expect(parseOperationCall("spawnAgent", {})).toHaveProperty("error");
    expect(parseOperationCall(42, {})).toHaveProperty("error");
  });

  it("rejects wrong argument types instead of defaulting them", () => {
    expect(parseOperationCall("armFault", { spec: "kill" })).toHaveProperty("error");
    expect(parseOperationCall("disarmFault", { id: 3 })).toHaveProperty("error");
    expect(parseOperationCall("readTrace", { id: "../../etc/passwd" })).toHaveProperty("error");
    expect(parseOperationCall("clearFaults", [])).toHaveProperty("error");
  });

  it("drops arguments an operation does not know", () => {
    expect(parseOperationCall("hubStatus", { command: "sh" })).toEqual({ op: "hubStatus", args: {} });
  });
});
