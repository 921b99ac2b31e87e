import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../shared/trace/record.js";
import { RecordSequencer } from "./record-sequencer.js";
import { type FrameFields, TraceFanout } from "./trace-fanout.js";
import type { TraceSink } from "./trace-sink.js";

/** A sink that keeps what it is given. */
function keeper(): TraceSink & { records: TraceRecord[] } {
  const records: TraceRecord[] = [];
  return { records, write: (r) => records.push(r), backpressure: () => null, close: async () => {} };
}

describe("TraceFanout", () => {
  it.each<[string, FrameFields]>([
    ["text", { raw: '{"jsonrpc":"2.0","method":"m"}' }],
    ["flagged", { raw: "noise", flags: ["malformed", "unterminated"] }],
    ["base64", { raw: "/w==", encoding: "base64", flags: ["malformed", "not-utf8"] }],
    ["oversize", { raw: "ab", flags: ["oversize"], bytes: 1000 }],
    ["dropped", { raw: "{}", flags: ["malformed"], dropped: true }],
    ["the tap's own", { raw: "{}", origin: "tap" }],
  ])("emits a %s frame as the same record, fields in the same order, as emit()", (_, fields) => {
    const viaEmit = keeper();
    const viaFrame = keeper();
    new TraceFanout(new RecordSequencer(), [viaEmit]).emit({
      type: "frame",
      conn: 3,
      dir: "client->agent",
      ...fields,
    });
    const returned = new TraceFanout(new RecordSequencer(), [viaFrame]).emitFrame(3, "client->agent", fields);
    const [a] = viaEmit.records;
    const [b] = viaFrame.records;
    expect(b).toBe(returned);
    // ts differs between the two fanouts' clocks; everything else must match, key order included.
    const withoutTs = (r: TraceRecord | undefined) => JSON.stringify({ ...r, ts: 0 });
    expect(withoutTs(b)).toBe(withoutTs(a));
    expect(Object.keys(b!)).toEqual(Object.keys(a!));
  });

  it("detaches a sink that throws and keeps feeding the others", () => {
    const errors: string[] = [];
    const good = keeper();
    const fanout = new TraceFanout(
      new RecordSequencer(),
      [
        {
          write: () => {
            throw new Error("boom");
          },
          backpressure: () => null,
          close: async () => {},
        },
        good,
      ],
      (m) => errors.push(m),
    );
    fanout.emitFrame(1, "agent->client", { raw: "{}" });
    fanout.emitFrame(1, "agent->client", { raw: "{}" });
    expect(good.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(errors).toEqual(["a trace sink failed and was detached: boom"]);
  });

  it("commits when asked, and at once for a frame the tap writes itself (origin set), never for others", () => {
    const committedAt: number[] = [];
    const sink = keeper();
    const fanout = new TraceFanout(new RecordSequencer(), [
      { ...sink, commit: () => committedAt.push(sink.records.length) },
      keeper(), // a lossy sink without commit
    ]);
    fanout.emitFrame(1, "agent->client", { raw: "{}" });
    fanout.emit({ type: "note", level: "info", text: "n" });
    expect(committedAt).toEqual([]);
    fanout.commit();
    fanout.emitFrame(1, "client->agent", { raw: "{}", origin: "inspector", replaces: 1 });
    fanout.emit({ type: "frame", conn: 1, dir: "client->agent", raw: "{}", origin: "tap" });
    fanout.emitFrame(1, "agent->client", { raw: "{}", dropped: true });
    expect(committedAt).toEqual([2, 3, 4]);
  });

  it("detaches a sink whose commit throws", () => {
    const errors: string[] = [];
    const good = keeper();
    const fanout = new TraceFanout(
      new RecordSequencer(),
      [
        {
          ...keeper(),
          commit: () => {
            throw new Error("disk gone");
          },
        },
        good,
      ],
      (m) => errors.push(m),
    );
    fanout.emitFrame(1, "agent->client", { raw: "{}" });
    fanout.commit();
    fanout.emitFrame(1, "agent->client", { raw: "{}" });
    fanout.commit();
    expect(good.records).toHaveLength(2);
    expect(errors).toEqual(["a trace sink failed and was detached: disk gone"]);
  });
});
