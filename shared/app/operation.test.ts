import { describe, expect, it } from "vitest";
import { MAX_FAULT_DELAY_MS, OPERATION_NAMES, parseOperationCall } from "./operation.js";

describe("parseOperationCall", () => {
  it("accepts every operation with well-formed arguments", () => {
    const good: Record<string, unknown> = {
      clear: undefined,
      setPaused: { paused: true },
      exportTrace: { redacted: true },
      importTrace: { fileName: "t.jsonl", text: "" },
      injectFault: { action: "delay-next-response", delayMs: 500 },
    };
    for (const op of OPERATION_NAMES) {
      expect(parseOperationCall(op, good[op])).toMatchObject({ op });
    }
  });

  it("rejects unknown names, including inherited object keys", () => {
    expect(parseOperationCall("constructor", {})).toHaveProperty("error");
    expect(parseOperationCall("spawnAgent", {})).toHaveProperty("error");
    expect(parseOperationCall(42, {})).toHaveProperty("error");
  });

  it("rejects wrong argument types instead of defaulting them", () => {
    expect(parseOperationCall("setPaused", { paused: "yes" })).toHaveProperty("error");
    expect(parseOperationCall("exportTrace", {})).toHaveProperty("error");
    expect(parseOperationCall("importTrace", { fileName: "x", text: 3 })).toHaveProperty("error");
    expect(parseOperationCall("injectFault", { action: "rm -rf" })).toHaveProperty("error");
    expect(parseOperationCall("injectFault", { action: "delay-next-response", delayMs: -1 })).toHaveProperty(
      "error",
    );
    expect(
      parseOperationCall("injectFault", { action: "delay-next-response", delayMs: MAX_FAULT_DELAY_MS + 1 }),
    ).toHaveProperty("error");
    expect(parseOperationCall("clear", [])).toHaveProperty("error");
  });

  it("drops arguments an operation does not know", () => {
    expect(parseOperationCall("setPaused", { paused: false, command: "sh" })).toEqual({
      op: "setPaused",
      args: { paused: false },
    });
  });
});
