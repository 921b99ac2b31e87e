import { describe, expect, it } from "vitest";
import { classifiedLine, classifiedSplitLine, lineEvidence, oversizeEvidence } from "./frame-evidence.js";

describe("frame evidence", () => {
  it("keeps valid JSON-RPC as text without flags, \\r included", () => {
    expect(lineEvidence(Buffer.from('{"jsonrpc":"2.0","method":"m"}\r'), true)).toEqual({
      raw: '{"jsonrpc":"2.0","method":"m"}\r',
    });
  });

  it("flags noise, batches and unterminated lines", () => {
    expect(lineEvidence(Buffer.from("Loading model..."), true).flags).toEqual(["malformed"]);
    expect(lineEvidence(Buffer.from('[{"jsonrpc":"2.0","method":"m"}]'), true).flags).toEqual(["malformed"]);
    expect(lineEvidence(Buffer.from('{"jsonrpc":"2.0","method":"m"}'), false).flags).toEqual([
      "unterminated",
    ]);
  });

  it("records bytes that are not UTF-8 as base64", () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]);
    expect(lineEvidence(bytes, true)).toEqual({
      raw: bytes.toString("base64"),
      encoding: "base64",
      flags: ["malformed", "not-utf8"],
    });
  });

  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"m"}', true],
    ['{"jsonrpc":"2.0","id":1,"method":"m"}', false],
    ["not json €", true],
    ["", true],
    ["", false],
  ])("classifies a split line %j (terminated: %s) like its body alone", (text, terminated) => {
    const body = Buffer.from(text);
    const line = terminated ? Buffer.concat([body, Buffer.from("\n")]) : body;
    expect(classifiedSplitLine(line, terminated)).toEqual(classifiedLine(body, terminated));
  });

  it("tells a split line that is not UTF-8 by its bytes before the newline", () => {
    // A truncated "€" just before the newline: still not UTF-8 with the "\n" after it.
    const body = Buffer.from([0x61, 0xe2, 0x82]);
    const split = classifiedSplitLine(Buffer.concat([body, Buffer.from("\n")]), true);
    expect(split).toEqual(classifiedLine(body, true));
    expect(split.evidence).toEqual({
      raw: body.toString("base64"),
      encoding: "base64",
      flags: ["malformed", "not-utf8"],
    });
  });

  it("cuts an oversize prefix at a character boundary and keeps the full length", () => {
    const prefix = Buffer.from("ab€").subarray(0, 4); // "ab" + 2 of the 3 bytes of "€"
    expect(oversizeEvidence(prefix, 1000, true)).toEqual({ raw: "ab", flags: ["oversize"], bytes: 1000 });
    expect(oversizeEvidence(Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb]), 9, false)).toEqual({
      raw: Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb]).toString("base64"),
      encoding: "base64",
      flags: ["oversize", "not-utf8", "unterminated"],
      bytes: 9,
    });
  });
});
