import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFrame, type Frame } from "./frame.js";
import { classifyAsciiLine, type MethodSpan, scanNotification } from "./notification-scan.js";

/** The line's bytes inside other bytes (as in a read holding several lines), and where it starts. */
const embed = (raw: string) => ({ b: Buffer.from(`{"x\n${raw}\n{"jsonrpc":"2.0"`), from: 4 });

/** `scanNotification` on the UTF-8 bytes of `raw`: the method it found, or null. */
function scan(raw: string): string | null {
  const { b, from } = embed(raw);
  const span: MethodSpan = { start: 0, end: 0 };
  return scanNotification(b, from, from + Buffer.byteLength(raw), span)
    ? b.subarray(span.start, span.end).toString()
    : null;
}

/** `classifyAsciiLine` as the tap calls it. */
function classifyLine(raw: string): Frame {
  const { b, from } = embed(raw);
  return classifyAsciiLine(raw, b, from);
}

/** Replaces every character past ASCII with "?". */
const toAscii = (s: string) => Array.from(s, (ch) => (ch.charCodeAt(0) < 0x80 ? ch : "?")).join("");
const isAscii = (s: string) => toAscii(s) === s;

/** A frame as plain data (reads a lazy frame's `params` and `message`). */
const plain = (f: Frame) => {
  const { kind } = f;
  if (kind === "malformed") return { ...f };
  const fields: Record<string, unknown> = { kind, message: f.message };
  if (kind === "notification" || kind === "request")
    Object.assign(fields, { method: f.method, params: f.params });
  if (kind !== "notification") fields.id = f.id;
  if (kind === "result") fields.result = f.result;
  if (kind === "error") fields.error = f.error;
  return fields;
};

/** Text close to JSON-RPC: messages of every kind, odd members, odd spacing, then maybe damaged. */
const member = fc.oneof(
  fc.constantFrom(
    ['"jsonrpc"', '"2.0"'],
    ['"jsonrpc"', '"1.0"'],
    ['"jsonrpc"', '"2\\u002e0"'],
    ['"jsonrpc"', "2.0"],
    ['"jsonrpc"', '["2.0"]'],
    ['"method"', '"session/update"'],
    ['"method"', '"a\\"b"'],
    ['"method"', "7"],
    ['"method"', '{"x":1}'],
    ['"id"', "1"],
    ['"id"', "null"],
    ['"\\u0069d"', "1"],
    ['"i\\"d"', "1"],
    ['"params"', '{"sessionId":"s","update":{"text":"déjà vu \\n \\u20ac 😀","n":[1,-0.5e+3,true,null]}}'],
    ['"result"', "{}"],
    ['"error"', '{"code":-32600,"message":"m"}'],
  ),
  fc.tuple(
    fc.json().map((k) => JSON.stringify(k)),
    fc.json(),
  ),
);
const space = fc.constantFrom("", " ", "\t", "\r\n", "\f", "\u00a0");
const message = fc
  .tuple(fc.array(fc.tuple(member, space, space), { maxLength: 6 }), space, space)
  .map(([members, a, b]) => `${a}{${members.map(([[k, v], s, t]) => `${s}${k}${t}:${v}`).join(",")}}${b}`);
const damage = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.string({ maxLength: 3 }));
/** Valid notifications, members in any order, any spacing, ASCII. */
const notification = fc
  .tuple(
    fc.shuffledSubarray([
      '"jsonrpc":"2.0"',
      '"method":"session/update"',
      '"params":{"sessionId":"s","update":{"text":"a \\"b\\" \\u00e9 \\n","n":[1,-0.5e+3,true,null,{}]}}',
    ]),
    fc.json().map((v) => `"extra":${v}`),
    space,
  )
  .map(([members, extra, s]) => toAscii(`{${[...members, extra].join(`,${s}`)}}`));
const line = fc.oneof(
  notification,
  message,
  message.map(toAscii),
  fc.tuple(message, damage).map(([m, [at, cut, add]]) => {
    const p = at % (m.length + 1);
    return m.slice(0, p) + add + m.slice(p + cut);
  }),
  fc.json(),
  fc.string({ unit: "binary", maxLength: 40 }),
);

describe("classifyLine", () => {
  it("classifies every ASCII line exactly as classifyFrame does", () => {
    fc.assert(
      fc.property(line, (raw) => {
        if (!isAscii(raw)) return;
        expect(plain(classifyLine(raw))).toEqual(plain(classifyFrame(raw)));
      }),
      { numRuns: 20_000 },
    );
  });

  it("only ever answers for valid notifications, with their method", () => {
    let answered = 0;
    fc.assert(
      fc.property(line, (raw) => {
        const method = scan(raw);
        if (method === null) return;
        answered++;
        const frame = classifyFrame(raw);
        expect(frame.kind).toBe("notification");
        expect(frame.kind === "notification" && frame.method).toBe(method);
      }),
      { numRuns: 20_000 },
    );
    // The generator makes plenty of notifications, so the answering path is exercised too.
    expect(answered).toBeGreaterThan(200);
  });

  it.each([
    ['{"jsonrpc":"2.0","method":"session/update","params":{"a":[1,2,{"b":null}]}}', "session/update"],
    [' \t{ "jsonrpc" : "2.0" , "method" : "m" }\r', "m"],
    ['{"method":"m","jsonrpc":"2.0"}', "m"],
    ['{"jsonrpc":"2.0","method":"a","method":"b"}', "b"],
  ])("answers for the notification %s", (raw, method) => {
    expect(scan(raw)).toBe(method);
  });

  it.each([
    '{"jsonrpc":"2.0","method":"m","id":1}',
    '{"jsonrpc":"2.0","method":"m","\\u0069d":1}',
    '{"jsonrpc":"2.0","method":"m","jsonrpc":"1.0"}',
    '{"jsonrpc":"2.0","method":"m","jsonrpc":{}}',
    '{"jsonrpc":"2.0","method":"m","method":[]}',
    '{"jsonrpc":"2\\u002e0","method":"m"}',
    '{"jsonrpc":"2.0","method":"m\\n"}',
    '{"jsonrpc":"2.0","method":"m"}x',
    '{"jsonrpc":"2.0","method":"m",}',
    '{"jsonrpc":"2.0","method":"m","params":01}',
    '{"jsonrpc":"2.0","method":"m","params":1.}',
    '{"jsonrpc":"2.0","method":"m","params":"\t"}',
    '{"jsonrpc":"2.0","method":"m","params":"\\x"}',
    '{"jsonrpc":"2.0","method":"m","params":tru}',
    '{"jsonrpc":"2.0","method":"m"}\f',
    '[{"jsonrpc":"2.0","method":"m"}]',
    `{"jsonrpc":"2.0","method":"m","params":${"[".repeat(100)}${"]".repeat(100)}}`,
  ])("leaves %s to classifyFrame", (raw) => {
    expect(scan(raw)).toBeNull();
    expect(plain(classifyLine(raw))).toEqual(plain(classifyFrame(raw)));
  });

  it("parses a scanned notification only when its params or message are read", () => {
    const frame = classifyLine('{"jsonrpc":"2.0","method":"m","params":{"x":[1]}}');
    expect(frame.kind).toBe("notification");
    expect(frame.kind === "notification" && frame.params).toEqual({ x: [1] });
    expect(frame.kind === "notification" && frame.message).toEqual({
      jsonrpc: "2.0",
      method: "m",
      params: { x: [1] },
    });
  });
});
