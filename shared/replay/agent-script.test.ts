import { describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../trace/record.js";
import { AgentMatcher } from "./agent-matcher.js";
import { buildAgentScript } from "./agent-script.js";

let seq = 0;
const rec = (r: Record<string, unknown>): TraceRecord =>
  ({ seq: ++seq, ts: seq, ...r }) as unknown as TraceRecord;
const f = (dir: FrameRecord["dir"], msg: object, extra: Partial<FrameRecord> = {}): TraceRecord =>
  rec({ type: "frame", conn: 1, dir, raw: JSON.stringify({ jsonrpc: "2.0", ...msg }), ...extra });
const c2a = (msg: object, extra?: Partial<FrameRecord>) => f("client->agent", msg, extra);
const a2c = (msg: object, extra?: Partial<FrameRecord>) => f("agent->client", msg, extra);
const prompt = (id: number | string, key?: string) => ({
  id,
  method: "session/prompt",
  params: { sessionId: "S", prompt: [{ type: "text", text: "hi" }], ...(key && { idempotencyKey: key }) },
});
const update = (n: number) => ({ method: "session/update", params: { sessionId: "S", update: { n } } });
const setup = (): TraceRecord[] => [
  rec({ type: "conn-open", conn: 1, transport: "stdio" }),
  rec({ type: "agent-spawn", pid: 10, command: ["a"] }),
  c2a({ id: 1, method: "initialize", params: { protocolVersion: 2 } }),
  a2c({ id: 1, result: { protocolVersion: 2 } }),
  c2a({ id: 2, method: "session/new", params: {} }),
  a2c({ id: 2, result: { sessionId: "S" } }),
];

/** A lose-and-retry recording as the tap writes it. */
function loseAndRetry(): TraceRecord[] {
  seq = 0;
  const head = setup();
  const answer = a2c({ id: 3, result: { messageId: "M" } }, { dropped: true });
  return [
    ...head,
    c2a(prompt(3, "K")),
    a2c(update(1)),
    answer,
    rec({ type: "fault", action: "lose-and-retry", conn: 1, frameSeq: answer.seq }),
    c2a(prompt("acp-retry-inspector:retry:1", "K"), { origin: "inspector", replaces: 3 }),
    a2c({ id: "acp-retry-inspector:retry:1", result: { messageId: "M" } }, { origin: "inspector" }),
    a2c(
      { id: 3, result: { messageId: "M" } },
      { origin: "inspector", replaces: "acp-retry-inspector:retry:1" },
    ),
    a2c(update(2)),
    rec({ type: "conn-close", conn: 1 }),
    rec({ type: "agent-exit", pid: 10, code: 0, signal: null }),
  ];
}

describe("buildAgentScript", () => {
  it("keeps each request with the frames after it and its answer, and marks the dropped answer lost", () => {
    const s = buildAgentScript(loseAndRetry());
    expect(s.exchanges.map((x) => [x.method, x.key, x.origin])).toEqual([
      ["initialize", undefined, undefined],
      ["session/new", undefined, undefined],
      ["session/prompt", "K", undefined],
      ["session/prompt", "K", "inspector"],
    ]);
    const [, , first, retry] = s.exchanges;
    expect(first?.before.map((r) => JSON.parse(r).params.update.n)).toEqual([1]);
    expect(first?.lost).toEqual({ kind: "dropped", by: "lose-and-retry" });
    expect(retry?.lost).toBeNull();
    expect(retry?.answer).toEqual({ result: { messageId: "M" } });
    // The copy forwarded under the client's id is the tap's, not the agent's: not an answer again.
    expect(retry?.after.map((r) => JSON.parse(r).params.update.n)).toEqual([2]);
    // The agent ended after the client closed: the normal end, not replayed as an exit.
    expect(retry?.exit).toBeUndefined();
  });

  it("marks where a restart killed the agent, with the recorded signal; the tap's setup is its own exchange", () => {
    seq = 0;
    const head = setup();
    const answer = a2c({ id: 3, result: { messageId: "M" } }, { dropped: true });
    const s = buildAgentScript([
      ...head,
      c2a(prompt(3, "K")),
      answer,
      rec({ type: "fault", action: "restart-and-retry", conn: 1, frameSeq: answer.seq }),
      rec({ type: "agent-exit", pid: 10, code: null, signal: "SIGKILL" }),
      rec({ type: "agent-spawn", pid: 11, command: ["a"] }),
      c2a({ id: "t1", method: "initialize", params: {} }, { origin: "tap" }),
      a2c({ id: "t1", result: {} }, { origin: "tap" }),
    ]);
    const prompted = s.exchanges[2];
    expect(prompted?.lost).toEqual({ kind: "dropped", by: "restart-and-retry" });
    expect(prompted?.exit).toEqual({ code: null, signal: "SIGKILL", by: "restart-and-retry" });
    expect(s.exchanges[3]).toMatchObject({ method: "initialize", origin: "tap", lost: null });
  });

  it("a request the fault swallowed, and one never answered, are lost; unusable agent frames are named", () => {
    seq = 0;
    const head = setup();
    const dropped = c2a(prompt(3, "K"), { dropped: true });
    const s = buildAgentScript([
      ...head,
      dropped,
      rec({ type: "fault", action: "drop-request", conn: 1, frameSeq: dropped.seq }),
      c2a(prompt(4, "K")),
      a2c({ method: "x" }, { encoding: "base64", raw: "AAA=" }),
    ]);
    expect(s.exchanges[2]?.lost).toEqual({ kind: "request-dropped", by: "drop-request" });
    expect(s.exchanges[3]?.lost).toEqual({ kind: "no-answer" });
    expect(s.unusable).toHaveLength(1);
  });
});

describe("AgentMatcher", () => {
  it("maps a live key to the recorded submission's key: a resend under it gets the recorded retry", () => {
    const m = new AgentMatcher(buildAgentScript(loseAndRetry()));
    expect(m.match("initialize", {})).toMatchObject({ exchange: { method: "initialize" } });
    expect(m.match("session/new", {})).toMatchObject({ exchange: { method: "session/new" } });
    const first = m.match("session/prompt", { idempotencyKey: "live" });
    expect(first).toMatchObject({ exchange: { key: "K" } });
    expect("exchange" in first && first.exchange.origin).toBeUndefined();
    const resend = m.match("session/prompt", { idempotencyKey: "live" });
    expect(resend).toMatchObject({ exchange: { key: "K", origin: "inspector" } });
    const third = m.match("session/prompt", { idempotencyKey: "live" });
    expect(third).toEqual({ unanswerable: expect.stringContaining("no further attempt") });
  });

  it("a resend under a new key finds no recorded submission left and is told why", () => {
    const m = new AgentMatcher(buildAgentScript(loseAndRetry()));
    m.match("session/prompt", { idempotencyKey: "live-1" });
    expect(m.match("session/prompt", { idempotencyKey: "live-2" })).toEqual({
      unanswerable: expect.stringContaining("a new key"),
    });
    expect(m.match("session/list", {})).toEqual({
      unanswerable: "the recording has no session/list request",
    });
    expect(m.match("initialize", {})).toMatchObject({ exchange: { method: "initialize" } });
    expect(m.match("initialize", {})).toEqual({ unanswerable: expect.stringContaining("all 1 recorded") });
  });

  it("its position survives a respawn: a new matcher from it goes on where the old one stopped", () => {
    const script = buildAgentScript(loseAndRetry());
    const m = new AgentMatcher(script);
    m.match("initialize", {});
    m.match("session/prompt", { idempotencyKey: "live" });
    const again = new AgentMatcher(script, JSON.parse(JSON.stringify(m.position())));
    expect(again.match("session/prompt", { idempotencyKey: "live" })).toMatchObject({
      exchange: { origin: "inspector" },
    });
    expect(again.match("initialize", {})).toHaveProperty("unanswerable");
  });
});
