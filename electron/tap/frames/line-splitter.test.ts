import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LineEvent, type LineRunEvent, LineSplitter } from "./line-splitter.js";

const b = (s: string) => Buffer.from(s);
const show = (events: LineEvent[]) =>
  events.map((e) =>
    e.kind === "oversize-end"
      ? `end(${e.prefix.toString()},${e.bytes},${e.terminated})`
      : `${e.kind === "line" ? (e.terminated ? "line" : "tail") : "part"}(${e.bytes.toString()})`,
  );

describe("LineSplitter", () => {
  it("yields whole lines with their newline, across chunk boundaries", () => {
    const s = new LineSplitter(100, 10);
    expect(show(s.push(b("a\nbc")))).toEqual(["line(a\n)"]);
    expect(show(s.push(b("d")))).toEqual([]);
    expect(show(s.push(b("e\r\n\nf")))).toEqual(["line(bcde\r\n)", "line(\n)"]);
    expect(show(s.end())).toEqual(["tail(f)"]);
    expect(s.end()).toEqual([]);
  });

  it("streams a line longer than the cap and keeps only its prefix", () => {
    const s = new LineSplitter(4, 3);
    expect(show(s.push(b("abc")))).toEqual([]);
    expect(show(s.push(b("de")))).toEqual(["part(abc)", "part(de)"]);
    expect(show(s.push(b("fg")))).toEqual(["part(fg)"]);
    expect(show(s.push(b("h\nok\n")))).toEqual(["part(h\n)", "end(abc,8,true)", "line(ok\n)"]);
  });

  it("reports an oversize line cut off by the end of the stream as unterminated", () => {
    const s = new LineSplitter(2, 8);
    expect(show(s.push(b("abcd")))).toEqual(["part(abcd)"]);
    expect(show(s.end())).toEqual(["end(abcd,4,false)"]);
  });

  it("reassembles any stream exactly, whatever the chunk boundaries", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1 }),
        fc.integer({ min: 1, max: 64 }),
        (bytes, cuts, cap) => {
          const s = new LineSplitter(cap, 8);
          const input = Buffer.from(bytes);
          const out: Buffer[] = [];
          const take = (events: LineEvent[]) => {
            for (const e of events) if (e.kind !== "oversize-end") out.push(e.bytes);
          };
          for (let pos = 0, i = 0; pos < input.length; i++) {
            const size = cuts[i % cuts.length]!;
            take(s.push(input.subarray(pos, pos + size)));
            pos += size;
          }
          take(s.end());
          expect(Buffer.concat(out).equals(input)).toBe(true);
        },
      ),
    );
  });

  it("gives the same lines as runs: whole lines of one chunk in one view, nothing else", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a.map((x) => (x % 5 === 0 ? 10 : x)))),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1 }),
        fc.integer({ min: 1, max: 64 }),
        (input, cuts, cap) => {
          const byLine = new LineSplitter(cap, 8);
          const byRun = new LineSplitter(cap, 8);
          const lines: string[] = [];
          const fromRuns: string[] = [];
          const take = (events: LineRunEvent[]) => {
            for (const e of events) {
              if (e.kind !== "lines") {
                fromRuns.push(show([e])[0]!);
                continue;
              }
              expect(e.bytes.at(-1)).toBe(10);
              for (const l of e.bytes.toString("latin1").split(/(?<=\n)/))
                fromRuns.push(`line(${Buffer.from(l, "latin1").toString()})`);
            }
          };
          for (let pos = 0, i = 0; pos < input.length; i++) {
            const chunk = input.subarray(pos, pos + cuts[i % cuts.length]!);
            lines.push(...show(byLine.push(chunk)));
            take(byRun.pushRuns(chunk));
            pos += chunk.length;
          }
          lines.push(...show(byLine.end()));
          take(byRun.end());
          expect(fromRuns).toEqual(lines);
        },
      ),
    );
  });
});
