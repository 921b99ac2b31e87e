import { describe, expect, it } from "vitest";
import { classifyLine, oversizeEvidence } from "./frame-evidence.js";

const NL = Buffer.from("\n");
/** The evidence of `body` as a whole line (with its "\n") or as the unterminated end of the stream. */
const evidence = (body: Buffer, terminated = true) =>
  classifyLine(terminated ? Buffer.concat([body, NL]) : body, terminated).evidence;

describe("frame evidence", () => {
  it("keeps valid JSON-RPC as text without flags, \\r included", () => {
    expect(evidence(Buffer.from('{"jsonrpc":"2.0","method":"m"}\r'))).toEqual({
      raw: '{"jsonrpc":"2.0","method":"m"}\r',
    });
  });

  it("flags noise, batches and unterminated lines", () => {
    expect(evidence(Buffer.from("Loading model...")).flags).toEqual(["malformed"]);
    expect(evidence(Buffer.from('[{"jsonrpc":"2.0","method":"m"}]')).flags).toEqual(["malformed"]);
    expect(evidence(Buffer.from('{"jsonrpc":"2.0","method":"m"}'), false).flags).toEqual(["unterminated"]);
    expect(evidence(Buffer.from("x"), false).flags).toEqual(["malformed", "unterminated"]);
  });

  it("records bytes that are not UTF-8 as base64", () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]);
    expect(evidence(bytes)).toEqual({
      raw: bytes.toString("base64"),
      encoding: "base64",
      flags: ["malformed", "not-utf8"],
    });
    expect(evidence(bytes, false).flags).toEqual(["malformed", "not-utf8", "unterminated"]);
  });

  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"m"}', "request"],
    ['{"jsonrpc":"2.0","method":"m","params":{"t":"déjà vu €"}}', "notification"],
    ["not json €", "malformed"],
    ["", "malformed"],
  ])("classifies the line %j by its bytes before the newline", (text, kind) => {
    const { evidence, frame } = classifyLine(Buffer.from(`${text}\n`), true);
    expect(evidence.raw).toBe(text);
    expect(frame?.kind).toBe(kind);
  });

  it("tells a line that is not UTF-8 by its bytes before the newline", () => {
    // A truncated "€" just before the newline: still not UTF-8 with the "\n" after it.
    const body = Buffer.from([0x61, 0xe2, 0x82]);
    const line = classifyLine(Buffer.concat([body, NL]), true);
    expect(line.frame).toBeNull();
    expect(line.evidence).toEqual({
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
