import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFrame } from "./frame.js";
import { MAX_SCAN_DEPTH, scanFrame } from "./frame-scan.js";

const SEED = 20261205;

/** What the scan must agree with: the fields `classifyFrame` and the parsed params give. */
function expected(raw: string) {
  const frame = classifyFrame(raw);
  if (frame.kind === "malformed") return null;
  const params = frame.message.params;
  const p =
    params !== null && typeof params === "object" && !Array.isArray(params)
      ? (params as Record<string, unknown>)
      : undefined;
  return {
    kind: frame.kind,
    id: frame.kind === "notification" ? undefined : frame.id,
    method: frame.kind === "request" || frame.kind === "notification" ? frame.method : undefined,
    sessionId: typeof p?.sessionId === "string" ? p.sessionId : undefined,
    hasIdempotencyKey: p !== undefined && Object.hasOwn(p, "idempotencyKey"),
  };
}

/** The scan is either `null` (parse in full) or equal, field by field, to the parse. */
function agrees(raw: string): boolean {
  const scan = scanFrame(raw);
  const want = expected(raw);
  if (scan === null) return true;
  expect(want).not.toBeNull();
  expect({ ...scan, id: Object.is(scan.id, -0) ? "-0" : scan.id }).toEqual({
    ...want,
    id: Object.is(want?.id, -0) ? "-0" : want?.id,
  });
  return true;
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("", "sess-1", 'a"b', "a\\b", "\u0000", "\u2028", "\ud800", "é", "idempotencyKey"),
);
const id = fc.oneof(
  fc.integer(),
  fc.double(),
  text,
  fc.constant(null),
  fc.constantFrom(0, -0, 1e21, 1.5, "1", true, {}, []),
);
const json = fc.jsonValue({ maxDepth: 4 });
const params = fc.oneof(
  json,
  fc.record(
    { sessionId: fc.oneof(text, json), idempotencyKey: fc.oneof(text, json), prompt: json, cwd: text },
    { requiredKeys: [] },
  ),
);
const message = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0", 2),
    id,
    method: fc.oneof(fc.constantFrom("session/prompt", "session/update", "initialize"), text, json),
    params,
    result: json,
    error: fc.oneof(
      fc.record(
        { code: fc.oneof(fc.integer(), json), message: fc.oneof(text, json), data: json },
        { requiredKeys: [] },
      ),
      json,
    ),
    other: json,
  },
  { requiredKeys: ["jsonrpc"] },
);

/** JSON.stringify, sometimes with spacing, a key escaped, or a key repeated. */
const spelled = fc
  .tuple(message, fc.constantFrom("none", "space", "escape-key", "repeat", "unicode-escape"))
  .map(([m, how]) => {
    if (how === "space") return JSON.stringify(m, null, 1).replace(/\n/g, " \t\r ");
    const raw = JSON.stringify(m);
    if (how === "escape-key")
      return raw.replace('"jsonrpc"', '"json\\u0072pc"').replace('"sessionId"', '"session\\u0049d"');
    if (how === "repeat")
      return raw.replace(/}$/, ',"id":"again","params":{"sessionId":"x","sessionId":"y"}}');
    if (how === "unicode-escape")
      return raw.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return raw;
  });

describe("scanFrame agrees with JSON.parse and classifyFrame", () => {
  it("on generated frames: ids, escaped strings, unicode, nested params, spacing, repeated keys", () => {
    fc.assert(fc.property(spelled, agrees), { seed: SEED, numRuns: 3000 });
  });

  it("on generated frames cut short, spliced or with a byte changed (mostly invalid JSON)", () => {
    const broken = fc
      .tuple(spelled, fc.nat(), fc.constantFrom("cut", "insert", "replace"), fc.string({ maxLength: 2 }))
      .map(([raw, at, how, bit]) => {
        const i = raw.length === 0 ? 0 : at % raw.length;
        if (how === "cut") return raw.slice(0, i);
        if (how === "insert") return raw.slice(0, i) + bit + raw.slice(i);
        return raw.slice(0, i) + bit + raw.slice(i + 1);
      });
    fc.assert(fc.property(broken, agrees), { seed: SEED, numRuns: 3000 });
  });

  it("on any string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), agrees), { seed: SEED, numRuns: 2000 });
  });

  it("reads the common frames without a parse", () => {
    expect(scanFrame('{"jsonrpc":"2.0","id":17,"method":"ping","params":{}}')).toEqual({
      kind: "request",
      id: 17,
      method: "ping",
      sessionId: undefined,
      hasIdempotencyKey: false,
    });
    expect(
      scanFrame(
        '{"jsonrpc":"2.0","id":"p\\u002d1","method":"session/prompt","params":{"sessionId":"s\\"1","idempotencyKey":"k","prompt":[{"type":"text","text":"hi \\ud83d\\ude00"}]}}',
      ),
    ).toEqual({
      kind: "request",
      id: "p-1",
      method: "session/prompt",
      sessionId: 's"1',
      hasIdempotencyKey: true,
    });
    expect(
      scanFrame('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')?.kind,
    ).toBe("error");
    expect(scanFrame('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}')?.kind).toBe(
      "notification",
    );
  });

  it("gives up where it cannot be sure, and JSON.parse decides", () => {
    const deep = `{"jsonrpc":"2.0","id":1,"result":${"[".repeat(MAX_SCAN_DEPTH + 5)}${"]".repeat(MAX_SCAN_DEPTH + 5)}}`;
    expect(scanFrame(deep)).toBeNull();
    expect(classifyFrame(deep).kind).toBe("result");
    // An escaped key may spell a member the scan reads; a repeated one is the parse's last.
    expect(scanFrame('{"jsonrpc":"2.0","\\u0069d":1,"method":"m"}')).toBeNull();
    expect(scanFrame('{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}')).toBeNull();
    expect(scanFrame('{"jsonrpc":"2.0","id":1,"method":"m"} x')).toBeNull();
    expect(scanFrame('{"jsonrpc":"2.0","id":1,"method":"m\u0001"}')).toBeNull();
    expect(scanFrame('{"jsonrpc":"2.0","id":1e400,"method":"m"}')).toBeNull();
  });
});
