import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineBatch, type LineEvent, LineSplitter } from "./line-splitter.js";

/** A destination that notes each write it is handed (corked ones once uncorked). */
function recorder(): { dest: Writable; written: Buffer[] } {
  const written: Buffer[] = [];
  const dest = new Writable({
    write(chunk: Buffer, _enc, cb) {
      written.push(chunk);
      cb();
    },
    writev(chunks, cb) {
      written.push(Buffer.concat(chunks.map((c) => c.chunk as Buffer)));
      cb();
    },
  });
  return { dest, written };
}

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

  it("streams a whole line longer than the cap that came in one read, and keeps its prefix", () => {
    const s = new LineSplitter(4, 3);
    expect(show(s.push(b("abcdef\nok\n")))).toEqual(["part(abcdef\n)", "end(abc,6,true)", "line(ok\n)"]);
    expect(show(s.push(b("xy")))).toEqual([]);
    expect(show(s.push(b("z12\n")))).toEqual(["part(xy)", "part(z12\n)", "end(xyz,5,true)"]);
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

  it("gives each line of a chunk as a view of it; a batch joins the lines of a chunk back into one", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a.map((x) => (x % 5 === 0 ? 10 : x)))),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1 }),
        fc.array(fc.boolean(), { minLength: 1 }),
        (input, cuts, keep) => {
          const s = new LineSplitter(1000, 8);
          const { dest, written } = recorder();
          const batch = new LineBatch(() => dest);
          const kept: Buffer[] = [];
          let n = 0;
          for (let pos = 0, i = 0; pos < input.length; i++) {
            // Each read in memory of its own, as a socket's reads are.
            const piece = input.subarray(pos, pos + cuts[i % cuts.length]!);
            const chunk = Buffer.alloc(piece.length);
            piece.copy(chunk);
            pos += chunk.length;
            let fromChunk = 0;
            const lines = s.push(chunk);
            for (const e of lines) {
              if (e.kind !== "line") throw new Error(`no oversize lines here: ${e.kind}`);
              if (e.bytes.buffer === chunk.buffer) fromChunk++;
              if (!keep[n++ % keep.length]) continue;
              kept.push(e.bytes);
              batch.add(e.bytes);
            }
            const before = written.length;
            batch.flush();
            // When every line is kept and none was carried over, the lines of a chunk leave as one view of it.
            if (fromChunk > 0 && fromChunk === lines.length && keep.every((k) => k)) {
              expect(written.slice(before).map((w) => w.buffer === chunk.buffer)).toEqual([true]);
            }
          }
          batch.flush();
          expect(Buffer.concat(written).equals(Buffer.concat(kept))).toBe(true);
        },
      ),
    );
  });

  it("writes the first send of a turn at once and the later ones of that turn together when it ends", async () => {
    const { dest, written } = recorder();
    const batch = new LineBatch(() => dest);
    const text = () => written.map(String);
    const chunk = b("a\nb\nc\n");
    batch.add(chunk.subarray(0, 2));
    batch.add(chunk.subarray(2, 4));
    batch.send();
    expect(text()).toEqual(["a\nb\n"]);
    batch.add(chunk.subarray(4, 6));
    batch.send();
    batch.add(b("d\n"));
    batch.send();
    expect(text()).toEqual(["a\nb\n"]);
    expect(dest.writableLength).toBe(4); // held by the destination: its backpressure counts them
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toEqual(["a\nb\n", "c\nd\n"]);
    batch.add(b("e\n"));
    batch.send();
    expect(text()).toEqual(["a\nb\n", "c\nd\n", "e\n"]);
  });

  it("keeps the loop from blocking for a turn's end only while bytes are corked", async () => {
    const { dest, written } = recorder();
    const batch = new LineBatch(() => dest);
    // A referenced immediate makes the event loop poll without blocking once more: a lone line must not cost that.
    const immediates = () => process.getActiveResourcesInfo().filter((r) => r === "Immediate").length;
    const idle = immediates();
    batch.add(b("lone\n"));
    batch.send();
    expect(written.map(String)).toEqual(["lone\n"]);
    expect(immediates()).toBe(idle);
    batch.add(b("corked\n"));
    batch.send();
    expect(written.map(String)).toEqual(["lone\n"]);
    expect(immediates()).toBe(idle + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.map(String)).toEqual(["lone\n", "corked\n"]);
    expect(immediates()).toBe(idle);
  });

  it("writes nothing while the destination cannot take writes", () => {
    const { dest, written } = recorder();
    let open = false;
    const batch = new LineBatch(() => (open ? dest : null));
    batch.add(b("lost\n"));
    batch.flush();
    open = true;
    batch.add(b("kept\n"));
    batch.flush();
    expect(written.map(String)).toEqual(["kept\n"]);
  });
});
