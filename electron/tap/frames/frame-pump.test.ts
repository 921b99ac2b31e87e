import { PassThrough, Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import type { TraceSink } from "../../trace/trace-sink.js";
import { within } from "../testing/proxy-run.js";
import {
  classifyLine,
  type FrameEvidence,
  OVERSIZE_PREFIX_BYTES,
  oversizeEvidence,
} from "./frame-evidence.js";
import type { FrameDecision, FramePolicy, TapFrame } from "./frame-policy.js";
import { FramePump } from "./frame-pump.js";

/** Each line of `input` (its bytes with the `\n`, if any), and whether it is too long to hold. */
function linesOf(
  input: Buffer,
  maxFrameBytes: number,
): { bytes: Buffer; terminated: boolean; oversize: boolean }[] {
  const out = [];
  for (let pos = 0; pos < input.length; ) {
    const nl = input.indexOf(10, pos);
    const terminated = nl !== -1;
    const end = terminated ? nl + 1 : input.length;
    const bytes = input.subarray(pos, end);
    out.push({ bytes, terminated, oversize: bytes.length - (terminated ? 1 : 0) > maxFrameBytes });
    pos = end;
  }
  return out;
}

/** What the pump should record for each line of `input`, whatever the chunking. */
function expectedEvidence(input: Buffer, maxFrameBytes: number): FrameEvidence[] {
  return linesOf(input, maxFrameBytes).map(({ bytes, terminated, oversize }) => {
    const body = terminated ? bytes.subarray(0, -1) : bytes;
    return oversize
      ? oversizeEvidence(body.subarray(0, OVERSIZE_PREFIX_BYTES), body.length, terminated)
      : classifyLine(bytes, terminated).evidence;
  });
}

/**
 * Pumps `chunks` through a FramePump into a destination that notes, for each frame record, how
 * many bytes it had been given when the record was written and when it was committed (the sink's
 * `commit`: record before forward).
 */
async function pump(chunks: Buffer[], maxFrameBytes: number, policy?: FramePolicy) {
  const source = new PassThrough();
  const received: Buffer[] = [];
  let forwarded = 0;
  const dest = new Writable({
    write(chunk: Buffer, _enc, cb) {
      received.push(chunk);
      forwarded += chunk.length;
      cb();
    },
  });
  const records: { record: TraceRecord; forwardedBefore: number; committedBefore?: number }[] = [];
  let uncommitted = 0;
  const sink: TraceSink = {
    write: (record) => records.push({ record, forwardedBefore: forwarded }),
    commit: () => {
      for (; uncommitted < records.length; uncommitted++) records[uncommitted]!.committedBefore = forwarded;
    },
    backpressure: () => null,
    close: async () => {},
  };
  const trace = new TraceFanout(new RecordSequencer(), [sink]);
  const done = new Promise<void>((resolve) => {
    new FramePump({
      source,
      dest,
      conn: 1,
      dir: "agent->client",
      trace,
      maxFrameBytes,
      policy,
      onEnd: resolve,
    }).start();
  });
  for (const c of chunks) source.write(c);
  source.end();
  await within(done, 5000, "the pump to end");
  // Whoever owns the destination ends it after the pump ended (as the tap does); that flushes it.
  await within(new Promise<void>((resolve) => dest.end(resolve)), 5000, "the destination to finish");
  const frames = records.filter(
    (r): r is { record: FrameRecord; forwardedBefore: number; committedBefore?: number } =>
      r.record.type === "frame",
  );
  return { output: Buffer.concat(received), frames };
}

const evidenceOf = (r: FrameRecord): FrameEvidence => {
  const { raw, encoding, flags, bytes } = r;
  return {
    raw,
    ...(encoding && { encoding }),
    ...(flags && { flags: [...flags] }),
    ...(bytes !== undefined && { bytes }),
  };
};

/** Cuts `input` at the given sizes (cycled). */
function cut(input: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let pos = 0, i = 0; pos < input.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(input.subarray(pos, pos + size));
    pos += size;
  }
  return chunks;
}

const line = fc.oneof(
  fc.constantFrom(
    '{"jsonrpc":"2.0","method":"session/update","params":{"text":"a \\"quoted\\" word"}}',
    '{"jsonrpc":"2.0","id":7,"result":{}}\r',
    '{"jsonrpc":"2.0","id":"x","method":"m","params":{"t":"déjà vu €😀"}}',
    "Loading model...",
    "[1,2]",
    "",
  ),
  fc.uint8Array({ maxLength: 30 }).map((b) => Buffer.from(b).toString("latin1")),
);

/** What a test policy does with one frame: decide at once or after a turn of the event loop, and how. */
const fate = fc.record({
  later: fc.boolean(),
  decision: fc.constantFrom<FrameDecision>(
    "forward",
    "forward",
    "drop",
    { forward: false, mark: "tap" },
    { forward: true },
  ),
});

describe("FramePump", () => {
  it("decides, records, then forwards every line, in order, whatever the chunking and the decisions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.boolean()), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 4, max: 120 }),
        fc.option(fc.array(fate, { minLength: 1, maxLength: 8 }), { nil: undefined }),
        async (lines, sizes, maxFrameBytes, fates) => {
          // Lines as bytes: latin1 text or UTF-8 text, so some are not UTF-8 and some are not ASCII.
          const input = Buffer.concat(
            lines.map(([l, utf8], i) =>
              Buffer.concat([
                Buffer.from(l, utf8 ? "utf8" : "latin1"),
                Buffer.from(i < lines.length - 1 ? "\n" : ""),
              ]),
            ),
          );
          const seen: TapFrame[] = [];
          const decided: FrameDecision[] = [];
          const policy: FramePolicy | undefined = fates && {
            decide: (f) => {
              seen.push(f);
              const { later, decision } = fates[(seen.length - 1) % fates.length]!;
              decided.push(decision);
              return later ? new Promise((resolve) => setImmediate(() => resolve(decision))) : decision;
            },
          };
          const { output, frames } = await pump(cut(input, sizes), maxFrameBytes, policy);
          const all = linesOf(input, maxFrameBytes);
          expect(frames.map((f) => evidenceOf(f.record))).toEqual(expectedEvidence(input, maxFrameBytes));
          // The policy saw every line that is not too long to hold, with its exact bytes and text.
          if (policy) {
            const whole = all.filter((l) => !l.oversize);
            expect(seen.map((f) => f.bytes.toString("latin1"))).toEqual(
              whole.map((l) => l.bytes.toString("latin1")),
            );
            expect(seen.map((f) => f.text)).toEqual(
              frames
                .filter((f) => !f.record.flags?.includes("oversize"))
                .map((f) => (f.record.encoding ? null : f.record.raw)),
            );
          }
          // Each line is forwarded or swallowed (and recorded so) as decided; oversize lines always go through.
          let next = 0;
          const decisionOf = (l: (typeof all)[number]) =>
            l.oversize || !policy ? "forward" : decided[next++]!;
          const decisions = all.map(decisionOf);
          const forwards = (d: FrameDecision) => d === "forward" || (typeof d === "object" && d.forward);
          expect(
            output.equals(Buffer.concat(all.filter((_, i) => forwards(decisions[i]!)).map((l) => l.bytes))),
          ).toBe(true);
          expect(frames.map((f) => f.record.dropped === true)).toEqual(
            decisions.map((d) => d === "drop" || (typeof d === "object" && !d.forward && d.mark !== "tap")),
          );
          expect(frames.map((f) => f.record.origin === "tap")).toEqual(
            decisions.map((d) => typeof d === "object" && !d.forward && d.mark === "tap"),
          );
          // Each line's record was written and committed before any of its bytes was forwarded
          // (but a line too long to hold is streamed through first and recorded, and committed,
          // before the byte that ends it).
          let forwardedBefore = 0;
          frames.forEach((f, i) => {
            const { oversize, terminated, bytes } = all[i]!;
            if (!oversize) expect(f.forwardedBefore).toBeLessThanOrEqual(forwardedBefore);
            if (forwards(decisions[i]!) && (terminated || !oversize)) {
              const last = oversize ? forwardedBefore + bytes.length - 1 : forwardedBefore;
              expect(f.committedBefore, `line ${i} committed before it left`).toBeLessThanOrEqual(last);
            }
            if (forwards(decisions[i]!)) forwardedBefore += bytes.length;
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps an oversize line's prefix to the line when the whole line came in one read", async () => {
    const input = Buffer.from(
      '{"jsonrpc":"2.0","method":"a-long-method-name"}\n{"jsonrpc":"2.0","method":"b"}\n',
    );
    const { output, frames } = await pump([input], 16);
    expect(output.equals(input)).toBe(true);
    expect(frames.map((f) => evidenceOf(f.record))).toEqual([
      { raw: '{"jsonrpc":"2.0","method":"a-long-method-name"}', flags: ["oversize"], bytes: 47 },
      { raw: '{"jsonrpc":"2.0","method":"b"}', flags: ["oversize"], bytes: 30 },
    ]);
  });
});
