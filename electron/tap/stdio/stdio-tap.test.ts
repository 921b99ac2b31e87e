import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import type { TraceSink } from "../../trace/trace-sink.js";
import { type FramePolicy, framePolicy } from "../frames/frame-policy.js";
import { scriptedAgent, within } from "../testing/proxy-run.js";
import { StdioTap } from "./stdio-tap.js";

/** An in-memory sink; `slow` makes it report backpressure until the test releases it. */
class MemorySink implements TraceSink {
  records: TraceRecord[] = [];
  blocked: (() => void) | null = null;
  pressureAsked = 0;
  constructor(private readonly slowEvery = 0) {}
  write(r: TraceRecord) {
    this.records.push(r);
  }
  backpressure() {
    if (this.slowEvery === 0 || this.records.length % this.slowEvery !== 0) return null;
    this.pressureAsked++;
    // Release on a later turn, as a slow disk would.
    return new Promise<void>((resolve) => setImmediate(resolve));
  }
  async close() {}
}

function tapWith(sinks: TraceSink[], policy?: FramePolicy, command = scriptedAgent("echo")) {
  const clientIn = new PassThrough();
  const clientOut = new PassThrough();
  const errOut = new PassThrough();
  const out: Buffer[] = [];
  clientOut.on("data", (c: Buffer) => out.push(c));
  errOut.resume();
  const notes: string[] = [];
  const trace = new TraceFanout(new RecordSequencer(), sinks, (m) => notes.push(m));
  const tap = new StdioTap({ command, clientIn, clientOut, errOut, trace, policy });
  return { tap, clientIn, output: () => Buffer.concat(out).toString("utf8"), notes };
}

const frames = (rs: TraceRecord[]) => rs.filter((r): r is FrameRecord => r.type === "frame");

describe("StdioTap as a library", () => {
  it("lets a policy drop and delay frames, keeping order and recording drops", async () => {
    const sink = new MemorySink();
    const policy: FramePolicy = framePolicy(async (f) => {
      if (f.dir !== "client->agent") return "forward";
      if (f.text?.includes('"drop"')) return "drop";
      if (f.text?.includes('"slow"')) await new Promise((r) => setTimeout(r, 50));
      return "forward";
    });
    const t = tapWith([sink], policy);
    const run = t.tap.run();
    t.clientIn.end(
      '{"jsonrpc":"2.0","method":"slow"}\n{"jsonrpc":"2.0","method":"drop"}\n{"jsonrpc":"2.0","method":"fast"}\n',
    );
    const outcome = await within(run, 10_000, "the tap to finish");
    expect(outcome).toEqual({ kind: "exited", code: 0, signal: null });
    expect(t.output()).toBe('{"jsonrpc":"2.0","method":"slow"}\n{"jsonrpc":"2.0","method":"fast"}\n');
    const sent = frames(sink.records).filter((f) => f.dir === "client->agent");
    expect(sent.map((f) => [f.raw, f.dropped])).toEqual([
      ['{"jsonrpc":"2.0","method":"slow"}', undefined],
      ['{"jsonrpc":"2.0","method":"drop"}', true],
      ['{"jsonrpc":"2.0","method":"fast"}', undefined],
    ]);
  });

  it("detaches a sink that throws and keeps the others and the forwarding going", async () => {
    const good = new MemorySink();
    const broken: TraceSink = {
      write() {
        throw new Error("boom");
      },
      backpressure: () => null,
      close: async () => {},
    };
    const t = tapWith([broken, good]);
    const run = t.tap.run();
    t.clientIn.end('{"jsonrpc":"2.0","method":"a"}\n');
    await within(run, 10_000, "the tap to finish");
    expect(t.output()).toBe('{"jsonrpc":"2.0","method":"a"}\n');
    expect(t.notes).toEqual(["a trace sink failed and was detached: boom"]);
    // conn-close and the echoed frame race each other; the rest of the order is fixed.
    expect([...good.records.map((r) => r.type)].sort()).toEqual([
      "agent-exit",
      "agent-spawn",
      "conn-close",
      "conn-open",
      "frame",
      "frame",
    ]);
    expect(good.records.at(-1)?.type).toBe("agent-exit");
  });

  it("waits for a slow evidence sink instead of losing records", async () => {
    const sink = new MemorySink(7);
    const t = tapWith([sink]);
    const run = t.tap.run();
    const lines = Array.from({ length: 2000 }, (_, i) => `{"jsonrpc":"2.0","method":"n","params":${i}}\n`);
    for (const l of lines) t.clientIn.write(l);
    t.clientIn.end();
    await within(run, 20_000, "the tap to finish");
    expect(t.output()).toBe(lines.join(""));
    expect(sink.pressureAsked).toBeGreaterThan(0);
    const f = frames(sink.records);
    expect(f).toHaveLength(4000);
    expect(sink.records.map((r) => r.seq)).toEqual(sink.records.map((_, i) => i + 1));
  });

  it("records a spawn failure and reports exit status 127", async () => {
    const sink = new MemorySink();
    const t = tapWith([sink], undefined, ["/nonexistent/agent-binary"]);
    const outcome = await within(t.tap.run(), 10_000, "the tap to finish");
    expect(outcome).toMatchObject({ kind: "spawn-failed", status: 127 });
    expect(sink.records.map((r) => r.type)).toEqual(["conn-open", "note", "conn-close"]);
  });
});
