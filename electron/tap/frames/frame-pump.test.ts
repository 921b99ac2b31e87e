import { PassThrough, Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import type { TraceSink } from "../../trace/trace-sink.js";
import { within } from "../testing/proxy-run.js";
import {
  type FrameEvidence,
  lineEvidence,
  OVERSIZE_PREFIX_BYTES,
  oversizeEvidence,
} from "./frame-evidence.js";
import type { FramePolicy, TapFrame } from "./frame-policy.js";
import { FramePump } from "./frame-pump.js";

/** What the pump should record for each line of `input`, whatever the chunking. */
function expectedEvidence(input: Buffer, maxFrameBytes: number): FrameEvidence[] {
  const out: FrameEvidence[] = [];
  for (let pos = 0; pos < input.length; ) {
    const nl = input.indexOf(10, pos);
    const terminated = nl !== -1;
    const body = input.subarray(pos, terminated ? nl : input.length);
    out.push(
      body.length > maxFrameBytes
        ? oversizeEvidence(body.subarray(0, OVERSIZE_PREFIX_BYTES), body.length, terminated)
        : lineEvidence(body, terminated),
    );
    pos = terminated ? nl + 1 : input.length;
  }
  return out;
}

/**
 * Pumps `chunks` through a FramePump into a destination that notes, for each frame record, how
 * many bytes it had been given when the record was written (log-before-forward).
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
  const records: { record: TraceRecord; forwardedBefore: number }[] = [];
  const sink: TraceSink = {
    write: (record) => records.push({ record, forwardedBefore: forwarded }),
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
    (r): r is { record: FrameRecord; forwardedBefore: number } => r.record.type === "frame",
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

describe("FramePump", () => {
  it("records every line as its own evidence, forwards every byte, and records before forwarding", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.boolean()), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 4, max: 120 }),
        fc.boolean(),
        async (lines, sizes, maxFrameBytes, observed) => {
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
          const policy: FramePolicy | undefined = observed
            ? { active: () => false, observe: (f) => seen.push(f), decide: () => "forward" }
            : undefined;
          const { output, frames } = await pump(cut(input, sizes), maxFrameBytes, policy);
          expect(output.equals(input)).toBe(true);
          expect(frames.map((f) => evidenceOf(f.record))).toEqual(expectedEvidence(input, maxFrameBytes));
          // Each line's record was written before any of its bytes was forwarded (but a line too
          // long to hold is streamed through first and recorded once it ended).
          let lineStart = 0;
          for (const f of frames) {
            if (!f.record.flags?.includes("oversize"))
              expect(f.forwardedBefore).toBeLessThanOrEqual(lineStart);
            const nl = input.indexOf(10, lineStart);
            lineStart = nl === -1 ? input.length : nl + 1;
          }
          if (observed && !frames.some((f) => f.record.flags?.includes("oversize"))) {
            // observe sees each line with its exact bytes (oversize lines may be streamed past it).
            const whole = frames;
            expect(seen.map((f) => f.text)).toEqual(
              whole.map((f) => (f.record.encoding ? null : f.record.raw)),
            );
            expect(Buffer.concat(seen.map((f) => f.bytes)).toString("latin1")).toBe(
              Buffer.concat(
                whole.map((f) =>
                  Buffer.concat([
                    Buffer.from(f.record.raw, f.record.encoding ?? "utf8"),
                    Buffer.from(f.record.flags?.includes("unterminated") ? "" : "\n"),
                  ]),
                ),
              ).toString("latin1"),
            );
          }
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
