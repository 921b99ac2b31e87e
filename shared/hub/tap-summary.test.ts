import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../trace/record.js";
import { describeAgent, TapLife } from "./tap-summary.js";

let seq = 0;
const rec = (r: Record<string, unknown>) => ({ seq: ++seq, ts: seq, ...r }) as unknown as TraceRecord;

describe("TapLife", () => {
  it("follows a stdio tap: waiting, running with its agent, ended after the exit", () => {
    const life = new TapLife();
    expect(life.status(true)).toBe("waiting");
    expect(describeAgent(life.snapshot())).toBe("no agent yet");
    life.ingest(rec({ type: "conn-open", conn: 1, transport: "stdio" }));
    life.ingest(rec({ type: "agent-spawn", pid: 41, command: ["a"] }));
    life.ingest(rec({ type: "frame", conn: 1, dir: "client->agent", raw: "{}" }));
    expect(life.status(true)).toBe("running");
    expect(life.snapshot()).toEqual({ agentPids: [41], connections: { open: 1, total: 1 }, lastExit: null });
    expect(describeAgent(life.snapshot())).toBe("agent pid 41");
    life.ingest(rec({ type: "conn-close", conn: 1, reason: "client closed stdin" }));
    life.ingest(rec({ type: "agent-exit", pid: 41, code: 0, signal: null }));
    expect(life.status(true)).toBe("waiting");
    expect(life.status(false)).toBe("ended");
    expect(life.records).toBe(5);
    expect(describeAgent(life.snapshot())).toBe("agent exited (code 0)");
  });

  it("keeps the new pid across a restart and calls a tap gone with its agent alive detached", () => {
    const life = new TapLife();
    life.ingest(rec({ type: "conn-open", conn: 1, transport: "stdio" }));
    life.ingest(rec({ type: "agent-spawn", pid: 41, command: ["a"] }));
    life.ingest(rec({ type: "agent-exit", pid: 41, code: null, signal: "SIGKILL" }));
    life.ingest(rec({ type: "agent-spawn", pid: 42, command: ["a"] }));
    expect(life.snapshot().agentPids).toEqual([42]);
    expect(life.snapshot().lastExit).toEqual({ pid: 41, code: null, signal: "SIGKILL" });
    expect(life.status(false)).toBe("detached");
    life.ingest(rec({ type: "agent-exit", pid: 42, code: null, signal: "SIGKILL" }));
    expect(describeAgent(life.snapshot())).toBe("agent killed (SIGKILL)");
  });

  it("counts each client connection of a remote front once", () => {
    const life = new TapLife();
    for (const conn of [1, 2]) life.ingest(rec({ type: "conn-open", conn, transport: "ws" }));
    life.ingest(rec({ type: "conn-close", conn: 1, reason: "x" }));
    expect(life.snapshot().connections).toEqual({ open: 1, total: 2 });
  });
});
