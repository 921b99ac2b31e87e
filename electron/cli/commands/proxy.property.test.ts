import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Direction, FrameRecord } from "../../../shared/trace/record.js";
import { scriptedAgent, startProxy, traceRecords, within } from "../../tap/testing/proxy-run.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-prop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NL = 0x0a;
const withoutNewlines = (b: Uint8Array) => Buffer.from(b.filter((x) => x !== NL));
const line = (s: string, end = "\n") => Buffer.from(`${s}${end}`);

/** One stdio line with its terminator, of every kind the tap must carry untouched. */
const frame = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({ id: fc.nat(), text: fc.string({ unit: "binary", maxLength: 300 }) })
      .map(({ id, text }) =>
        line(
          JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params: { prompt: [{ text }] } }),
        ),
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .string({ unit: "grapheme", maxLength: 200 })
      .map((text) =>
        line(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { text } }), "\r\n"),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.string({ unit: "binary", maxLength: 120 }).map((s) => line(s.replaceAll("\n", ""))),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 200 })
      .map((b) => Buffer.concat([withoutNewlines(b), Buffer.from([NL])])),
  },
  { weight: 1, arbitrary: fc.constant(line("")) },
);

/** A frame of about 1 MB (a long unicode string inside a JSON-RPC notification). */
const bigFrame = fc
  .tuple(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }),
    fc.integer({ min: 900_000, max: 1_100_000 }),
  )
  .map(([unit, bytes]) => {
    const count = Math.ceil(bytes / Buffer.byteLength(unit));
    return line(JSON.stringify({ jsonrpc: "2.0", method: "big", params: { text: unit.repeat(count) } }));
  });

/** A client session: frames (a few big ones among them), an optional unterminated tail, and how to cut the writes. */
const session = fc
  .record({
    frames: fc.array(frame, { minLength: 100, maxLength: 400 }),
    big: fc.array(fc.tuple(bigFrame, fc.nat()), { maxLength: 2 }),
    tail: fc.option(fc.uint8Array({ minLength: 1, maxLength: 64 }).map(withoutNewlines), { nil: undefined }),
    cuts: fc.array(
      fc.oneof(
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 17, max: 4096 }),
        fc.integer({ min: 4097, max: 262_144 }),
      ),
      { minLength: 1, maxLength: 40 },
    ),
    bursts: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 10 }),
    agentSeed: fc.integer({ min: 1, max: 0x7fffffff }),
  })
  .map((s) =>
    // A compact description for failure reports (the frames themselves run to megabytes); rerun with the printed seed.
    Object.assign(s, {
      [fc.toStringMethod]: () =>
        `session(${s.frames.length} frames, ${s.big.length} big, tail ${s.tail?.length ?? 0} B, cuts [${s.cuts}], bursts [${s.bursts}], agent seed ${s.agentSeed})`,
    }),
  );

/** Rebuilds the byte stream of one direction from the trace: raw bytes plus the newline unless unterminated. */
function replay(records: readonly FrameRecord[], dir: Direction): Buffer {
  return Buffer.concat(
    records
      .filter((r) => r.dir === dir)
      .flatMap((r) => {
        const bytes = Buffer.from(r.raw, r.encoding === "base64" ? "base64" : "utf8");
        return r.flags?.includes("unterminated") ? [bytes] : [bytes, Buffer.from([NL])];
      }),
  );
}

describe("proxy property: random traffic through a real proxy and a real agent", () => {
  let runs = 0;
  let totalFrames = 0;

  it("delivers every byte in order both ways, and the trace holds every frame exactly", async () => {
    await fc.assert(
      fc.asyncProperty(session, async (s) => {
        const lines = [...s.frames];
        for (const [big, at] of s.big) lines.splice(at % (lines.length + 1), 0, big);
        const input = Buffer.concat(s.tail ? [...lines, s.tail] : lines);
        const trace = join(dir, `prop-${++runs}.jsonl`);
        const run = startProxy(["--trace", trace], scriptedAgent("rechunk", String(s.agentSeed)));

        // Partial writes at random boundaries, in bursts, yielding (or waiting for drain) between bursts.
        let pos = 0;
        for (let i = 0; pos < input.length; i++) {
          const burst = s.bursts[i % s.bursts.length]!;
          let ok = true;
          for (let j = 0; j < burst && pos < input.length; j++) {
            const size = s.cuts[(i * 7 + j) % s.cuts.length]!;
            ok = run.child.stdin.write(input.subarray(pos, pos + size));
            pos += size;
          }
          await new Promise((r) => (ok ? setImmediate(r) : run.child.stdin.once("drain", r)));
        }
        run.child.stdin.end();

        const done = await within(run.done, 30_000, "the proxy to exit");
        expect(done.code).toBe(0);
        expect(done.stdout.equals(input)).toBe(true);

        const records = await traceRecords(trace);
        const frames = records.filter((r): r is FrameRecord => r.type === "frame");
        const expected = lines.length + (s.tail && s.tail.length > 0 ? 1 : 0);
        expect(frames.filter((f) => f.dir === "client->agent")).toHaveLength(expected);
        expect(frames.filter((f) => f.dir === "agent->client")).toHaveLength(expected);
        expect(replay(frames, "client->agent").equals(input)).toBe(true);
        expect(replay(frames, "agent->client").equals(input)).toBe(true);
        expect(records.every((r, i) => r.seq === i + 1)).toBe(true);
        rmSync(trace, { force: true });
        totalFrames += expected;
      }),
      { numRuns: 20, endOnFailure: true },
    );
    expect(totalFrames).toBeGreaterThan(2000);
  }, 180_000);
});
