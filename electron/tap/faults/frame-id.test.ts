import { describe, expect, it } from "vitest";
import { withJsonRpcId } from "./frame-id.js";

describe("withJsonRpcId", () => {
  it("replaces only the top-level id, keeping every other byte", () => {
    const text =
      '{ "jsonrpc":"2.0",  "id" : 7,"method":"session/prompt","params":{"id":1,"t":"a\\"id\\":2 é","n":1.50}}';
    expect(withJsonRpcId(text, "acp-retry-inspector:retry:1")).toBe(
      '{ "jsonrpc":"2.0",  "id" : "acp-retry-inspector:retry:1","method":"session/prompt","params":{"id":1,"t":"a\\"id\\":2 é","n":1.50}}',
    );
    expect(withJsonRpcId('{"jsonrpc":"2.0","id":"acp-retry-inspector:retry:1","result":{}}', 7)).toBe(
      '{"jsonrpc":"2.0","id":7,"result":{}}',
    );
  });

  it("handles ids after nested values and escaped keys", () => {
    expect(withJsonRpcId('{"params":[{"a":"}"}],"\\u0069d":"x"}', 3)).toBe(
      '{"params":[{"a":"}"}],"\\u0069d":3}',
    );
  });

  it.each(["[]", "{}", '{"jsonrpc":"2.0","method":"x"}', '{"id":', "not json"])("refuses %j", (text) => {
    expect(withJsonRpcId(text, 1)).toBeNull();
  });
});
