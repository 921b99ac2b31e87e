/** Streamed chunks folded into runs (chunk-runs.ts). */
import { describe, expect, it } from "vitest";
import { ChunkFolder, chunkOf, isChunkRun, stillArriving } from "./chunk-runs.js";
import { TraceScript } from "./testing/trace-script.js";

const chunk = (t: TraceScript, sessionId: string, text: string, kind = "agent_message_chunk") =>
  t.notify(1, "agent->client", "session/update", {
    sessionId,
    update: { sessionUpdate: kind, content: { type: "text", text } },
  });

describe("ChunkFolder", () => {
  it("folds a run of one kind and session into one row with its count and size; anything else breaks the run", () => {
    const t = new TraceScript().open(1).prompt(1, 1, "s", "hi", "K");
    for (const w of ["Hel", "lo ", "world"]) chunk(t, "s", w);
    chunk(t, "s", "hmm", "agent_thought_chunk");
    chunk(t, "s", "one");
    t.inserted(1, 1, "m1");
    const f = new ChunkFolder();
    for (const r of t.records) f.add(r);
    const shape = f.rows.map((r) => (isChunkRun(r) ? `run ${r.kind} x${r.count}` : r.type));
    expect(shape).toEqual(["conn-open", "frame", "run agent_message_chunk x3", "frame", "frame", "frame"]);
    const run = f.rows.find(isChunkRun);
    const frames = t.records.filter((r) => r.type === "frame" && chunkOf(r)?.kind === "agent_message_chunk");
    expect(run?.bytes).toBe(
      frames.slice(0, 3).reduce((n, r) => n + (r.type === "frame" ? r.raw.length : 0), 0),
    );
    expect(run?.seq).toBe(frames[0]?.seq);
  });

  it("a growing run is a new object each time (views re-render it); another session starts a new run", () => {
    const t = new TraceScript().open(1);
    chunk(t, "a", "1");
    chunk(t, "a", "2");
    const f = new ChunkFolder();
    for (const r of t.records) f.add(r);
    const before = f.rows.at(-1);
    chunk(t, "a", "3");
    chunk(t, "b", "x");
    for (const r of t.records.slice(-2)) f.add(r);
    const runs = f.rows.filter(isChunkRun);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.count).toBe(3);
    expect(runs[0]).not.toBe(before);
    expect(isChunkRun(f.rows.at(-1))).toBe(false);
  });

  it("still arriving only while live, newest and recent", () => {
    const t = new TraceScript().open(1);
    chunk(t, "a", "1");
    chunk(t, "a", "2");
    const f = new ChunkFolder();
    for (const r of t.records) f.add(r);
    const run = f.rows.find(isChunkRun);
    if (!run) throw new Error("no run");
    expect(stillArriving(run, true, run.lastSeq, run.lastTs + 500)).toBe(true);
    expect(stillArriving(run, true, run.lastSeq, run.lastTs + 5000)).toBe(false);
    expect(stillArriving(run, false, run.lastSeq, run.lastTs)).toBe(false);
    expect(stillArriving(run, true, run.lastSeq + 1, run.lastTs)).toBe(false);
  });

  it("malformed or non-chunk frames are not chunks", () => {
    const t = new TraceScript()
      .open(1)
      .raw(1, "agent->client", '{"method":"session/update","params":{"update":{"sessionUpdate":"x_chunk"');
    expect(chunkOf(t.records.at(-1) as never)).toBeNull();
  });
});
