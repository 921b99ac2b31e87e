import { describe, expect, it } from "vitest";
import { classifyFrame } from "./frame.js";

describe("classifyFrame", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', "request"],
    ['{"jsonrpc":"2.0","id":"a","method":"x"}', "request"],
    ['{"jsonrpc":"2.0","method":"session/update","params":{}}', "notification"],
    ['{"jsonrpc":"2.0","id":1,"result":null}', "result"],
    ['{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', "error"],
    ["not json", "malformed"],
    ["", "malformed"],
    ["[]", "malformed"],
    ['[{"jsonrpc":"2.0","id":1,"method":"x"}]', "malformed"],
    ["42", "malformed"],
    ['{"id":1,"method":"x"}', "malformed"],
    ['{"jsonrpc":"2.0","id":{},"method":"x"}', "malformed"],
    ['{"jsonrpc":"2.0","id":1}', "malformed"],
    ['{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}', "malformed"],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}', "malformed"],
    ['{"jsonrpc":"2.0","method":5}', "malformed"],
  ])("%s -> %s", (raw, kind) => {
    expect(classifyFrame(raw).kind).toBe(kind);
  });

  it("explains why a frame is malformed", () => {
    const f = classifyFrame("[1]");
    expect(f.kind === "malformed" && f.reason).toContain("batch");
  });
});
