import { describe, expect, it } from "vitest";
import { classifyFrame } from "../protocol/frame.js";
import { FRAME_PREVIEW_BYTES, previewFrame, utf8Length } from "./frame-preview.js";
import type { FrameRecord } from "./record.js";

const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const frame = (raw: string): FrameRecord => ({
  type: "frame",
  seq: 4,
  ts: 1,
  conn: 1,
  dir: "client->agent",
  raw,
});
const prompt = (text: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "session/prompt",
    params: { sessionId: "s1", idempotencyKey: KEY, prompt: [{ type: "image", data: text }] },
  });

describe("previewFrame", () => {
  it("leaves a frame up to the threshold as it is (the same object)", () => {
    const small = frame(prompt("x".repeat(1000)));
    expect(previewFrame(small)).toBe(small);
    const atLimit = frame(
      prompt("").replace('""', `"${"x".repeat(FRAME_PREVIEW_BYTES - prompt("").length)}"`),
    );
    expect(utf8Length(atLimit.raw)).toBe(FRAME_PREVIEW_BYTES);
    expect(previewFrame(atLimit)).toBe(atLimit);
  });

  it("cuts the long strings of a large frame and keeps the message the analyzer reads", () => {
    const big = frame(prompt("A".repeat(1 << 20)));
    const p = previewFrame(big);
    expect(p.previewOf).toBe(big.raw.length);
    expect(p.raw.length).toBeLessThan(2_000);
    const m = classifyFrame(p.raw);
    expect(m).toMatchObject({ kind: "request", method: "session/prompt", id: 7 });
    expect(JSON.parse(p.raw).params).toMatchObject({ sessionId: "s1", idempotencyKey: KEY });
    expect(p.raw).toContain(`[cut: ${1 << 20} chars, fnv `);
  });

  it("never previews two different strings as equal", () => {
    const a = previewFrame(frame(prompt(`${"A".repeat(1 << 19)}x`)));
    const b = previewFrame(frame(prompt(`${"A".repeat(1 << 19)}y`)));
    expect(a.raw).not.toBe(b.raw);
  });

  it("counts UTF-8 bytes, keeps only the envelope of a huge array, and the start of a line that is not JSON", () => {
    const wide = frame(prompt("é".repeat(200_000)));
    expect(wide.raw.length).toBeLessThan(FRAME_PREVIEW_BYTES);
    expect(previewFrame(wide).previewOf).toBe(utf8Length(wide.raw));
    expect(utf8Length("a😀é€")).toBe(1 + 4 + 2 + 3);
    const many = frame(
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: { sessionId: "s", items: Array(200_000).fill(1) } }),
    );
    const env = JSON.parse(previewFrame(many).raw);
    expect(env).toMatchObject({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } });
    expect(env.result.items).toBeUndefined();
    const text = frame("not json ".repeat(100_000));
    expect(previewFrame(text).raw).toBe(text.raw.slice(0, 4096));
  });
});
