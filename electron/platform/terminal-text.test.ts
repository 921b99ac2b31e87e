import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  TERMINAL_CONTROL as ACTIVE,
  TERMINAL_CONTROL_OR_NEWLINE,
} from "../tools/testing/terminal-controls.js";
import { terminalSafe, terminalSafeJson, terminalSafeJsonChunks } from "./terminal-text.js";

describe("terminalSafe", () => {
  it("shows escape sequences as text: clear screen, OSC 52 clipboard write, hidden text, 8-bit CSI", () => {
    expect(terminalSafe("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(terminalSafe("\u001b]52;c;SGVsbG8=\u0007")).toBe("\\x1b]52;c;SGVsbG8=\\x07");
    expect(terminalSafe("\u001b[8mhidden\u001b[0m")).toBe("\\x1b[8mhidden\\x1b[0m");
    expect(terminalSafe("\u009b2J \u007f")).toBe("\\x9b2J \\x7f");
    expect(terminalSafe("abc\u202edcba")).toBe("abc\\u202edcba");
  });

  it("keeps one value on one line unless told to keep newlines; a carriage return is always escaped", () => {
    expect(terminalSafe("one\ntwo\r\tthree")).toBe("one\\ntwo\\r\\tthree");
    expect(terminalSafe("one\ntwo\r", { keepNewlines: true })).toBe("one\ntwo\\r");
  });

  it("leaves printable text alone, non-ASCII included", () => {
    expect(terminalSafe('C:\\Users\\ü "€😀" → ok')).toBe('C:\\Users\\ü "€😀" → ok');
  });

  it("never lets an active character through (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(terminalSafe(s)).not.toMatch(TERMINAL_CONTROL_OR_NEWLINE);
        expect(terminalSafe(s, { keepNewlines: true })).not.toMatch(ACTIVE);
      }),
    );
  });
});

describe("terminalSafeJson", () => {
  it("is still JSON of the same value, with nothing a terminal acts on", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, s) => {
        const doc = { value, s };
        const text = terminalSafeJson(doc, 2);
        expect(text).not.toMatch(ACTIVE);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(doc)));
      }),
    );
  });
});

describe("terminalSafeJsonChunks", () => {
  it("writes the text of terminalSafeJson, character for character, in pieces", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.jsonValue(), { maxLength: 4 }),
        fc.string({ unit: "binary" }),
        (value, list, s) => {
          const doc = {
            value,
            list,
            s,
            nested: { list, empty: [], none: {}, gone: undefined },
            last: [undefined, 1],
          };
          const chunks = [...terminalSafeJsonChunks(doc, 2)];
          expect(chunks.join("")).toBe(terminalSafeJson(doc, 2));
        },
      ),
    );
  });

  it("never builds the whole document as one string", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ i, text: "x".repeat(100) }));
    const chunks = [...terminalSafeJsonChunks({ rows }, 2)];
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(200);
    expect(JSON.parse(chunks.join(""))).toEqual({ rows });
  });
});
