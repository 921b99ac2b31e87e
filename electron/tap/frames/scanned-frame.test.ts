import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFrame, type Frame } from "../../../shared/protocol/frame.js";
import { classifyLine } from "./frame-evidence.js";

/** Every member a consumer of a Frame may read, read the way the tap's books read them. */
function view(frame: Frame | null): unknown {
  if (frame === null) return null;
  if (frame.kind === "malformed") return { kind: frame.kind, reason: frame.reason, value: frame.value };
  const m = frame as Frame & Record<string, unknown>;
  const call = frame.kind === "request" || frame.kind === "notification";
  return {
    kind: frame.kind,
    id: frame.kind === "notification" ? undefined : m.id,
    method: call ? m.method : undefined,
    params: call ? m.params : undefined,
    result: frame.kind === "result" ? m.result : undefined,
    error: frame.kind === "error" ? m.error : undefined,
    message: frame.message,
  };
}

/** The evidence and frame the tap made before classification was lazy: a full parse of every line. */
function eager(bytes: Buffer, terminated: boolean) {
  const { evidence } = classifyLine(bytes, terminated);
  if (evidence.encoding) return { evidence, frame: null };
  const frame = classifyFrame(evidence.raw);
  const flags = frame.kind === "malformed" ? ["malformed"] : [];
  if (!terminated) flags.push("unterminated");
  return { evidence: { raw: evidence.raw, ...(flags.length > 0 && { flags }) }, frame };
}

const frames = fc.oneof(
  fc
    .record(
      {
        jsonrpc: fc.constantFrom("2.0", "2.0", "1"),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double()),
        method: fc.oneof(fc.constantFrom("session/prompt", "initialize", "session/update"), fc.string()),
        params: fc.oneof(
          fc.record(
            { sessionId: fc.string(), idempotencyKey: fc.string(), prompt: fc.jsonValue() },
            { requiredKeys: [] },
          ),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        result: fc.jsonValue({ maxDepth: 3 }),
        error: fc.record({ code: fc.integer(), message: fc.string() }),
      },
      { requiredKeys: ["jsonrpc"] },
    )
    .map((m) => JSON.stringify(m)),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    '{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}',
    `{"jsonrpc":"2.0","id":1,"result":${"[".repeat(99)}${"]".repeat(99)}}`,
  ),
);

describe("lazy classification", () => {
  it("gives every line the same record evidence and the same frame as a full parse", () => {
    fc.assert(
      fc.property(frames, fc.boolean(), (text, terminated) => {
        const bytes = Buffer.from(terminated ? `${text}\n` : text);
        const lazy = classifyLine(bytes, terminated);
        const full = eager(bytes, terminated);
        expect(lazy.evidence).toEqual(full.evidence);
        expect(view(lazy.frame)).toEqual(view(full.frame));
      }),
      { seed: 20261205, numRuns: 1500 },
    );
  });

  it("parses a scanned frame only when its params, result, error or message are asked for", () => {
    const { frame } = classifyLine(
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"a":1}}\n'),
      true,
    );
    expect(frame?.kind).toBe("request");
    expect(Object.keys(frame ?? {})).not.toContain("message");
    expect(frame?.kind === "request" && frame.params).toEqual({ a: 1 });
  });
});
