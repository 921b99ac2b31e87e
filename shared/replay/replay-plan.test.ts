import { describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../trace/record.js";
import { AgentAnswers } from "./agent-answers.js";
import { rewriteFrame } from "./frame-rewrite.js";
import { recordedFaultRules } from "./recorded-faults.js";
import { connId, planReplay } from "./replay-plan.js";

let seq = 0;
const f = (dir: FrameRecord["dir"], msg: object, extra: Partial<FrameRecord> = {}): TraceRecord => ({
  type: "frame",
  seq: ++seq,
  ts: seq,
  conn: 1,
  dir,
  raw: JSON.stringify({ jsonrpc: "2.0", ...msg }),
  ...extra,
});
const c2a = (msg: object, extra?: Partial<FrameRecord>) => f("client->agent", msg, extra);
const a2c = (msg: object, extra?: Partial<FrameRecord>) => f("agent->client", msg, extra);
const prompt = (id: number, key?: string) => ({
  id,
  method: "session/prompt",
  params: { sessionId: "S", prompt: [{ type: "text", text: "hi" }], ...(key && { idempotencyKey: key }) },
});

/** A lose-and-retry recording as the tap writes it, with a permission request in the turn. */
function recording(): TraceRecord[] {
  seq = 0;
  return [
    c2a({ id: 1, method: "initialize", params: { protocolVersion: 2 } }),
    a2c({ id: 1, result: {} }),
    c2a({ id: 2, method: "session/new", params: {} }),
    a2c({ id: 2, result: { sessionId: "S" } }),
    c2a(prompt(3, "K1")),
    c2a(prompt(4, "K2")),
    a2c({
      id: 0,
      method: "session/request_permission",
      params: { options: [{ optionId: "yes", kind: "allow_once" }] },
    }),
    c2a({ id: 0, result: { outcome: { outcome: "selected", optionId: "yes" } } }),
    a2c({ id: 3, result: { messageId: "m1" } }, { dropped: true }),
    { type: "fault", seq: ++seq, ts: seq, action: "lose-and-retry", conn: 1, frameSeq: 9 },
    c2a(
      { ...prompt(3, "K1"), id: "acp-retry-inspector:retry:1" },
      { origin: "inspector", replaces: 3, copyOf: 5 },
    ),
    a2c({ id: "acp-retry-inspector:retry:1", result: { messageId: "m1" } }, { origin: "inspector" }),
    a2c(
      { id: 3, result: { messageId: "m1" } },
      { origin: "inspector", replaces: "acp-retry-inspector:retry:1", copyOf: 12 },
    ),
    a2c({ id: 4, result: { messageId: "m2" } }),
    c2a({ id: 5, method: "session/close", params: { sessionId: "S" } }),
  ];
}

describe("planReplay", () => {
  it("keeps the client's own frames in order, without the inspector's copies or the client's answers", () => {
    const plan = planReplay(recording());
    expect(plan.steps.map((s) => s.seq)).toEqual([1, 3, 5, 6, 15]);
    expect(plan.steps.map((s) => s.raw)).toEqual(
      recording()
        .filter((r) => [1, 3, 5, 6, 15].includes(r.seq))
        .map((r) => (r as FrameRecord).raw),
    );
  });

  it("makes each frame wait for the answers the recorded client had seen before it sent it, and no more", () => {
    const plan = planReplay(recording());
    expect(plan.steps.map((s) => s.waitFor)).toEqual([
      [],
      [connId(1, 1)],
      [connId(1, 2)],
      [],
      [connId(1, 3), connId(1, 4)],
    ]);
    expect(plan.sessionMakers).toEqual(new Map([[connId(1, 2), "S"]]));
    expect([...plan.seenAnswered].sort()).toEqual([1, 2, 3, 4].map((i) => connId(1, i)).sort());
  });

  it("keeps the client's answers to the agent's requests by method", () => {
    const plan = planReplay(recording());
    expect(plan.answers.get("session/request_permission")?.[0]?.body).toEqual({
      result: { outcome: { outcome: "selected", optionId: "yes" } },
    });
  });
});

describe("recordedFaultRules", () => {
  it("turns a lose-and-retry on key K1's answer into a rule matching that key", () => {
    expect(recordedFaultRules(recording())).toEqual({
      rules: ["lose-and-retry:method=session/prompt,key=K1,count=1"],
      remarks: [],
    });
  });

  it("says when a fault is placed by order (no key) or cannot be placed", () => {
    seq = 0;
    const records: TraceRecord[] = [
      c2a(prompt(1)),
      a2c({ id: 1, result: { messageId: "m" } }, { dropped: true }),
      { type: "fault", seq: ++seq, ts: seq, action: "drop-response", frameSeq: 2 },
      { type: "fault", seq: ++seq, ts: seq, action: "kill-agent" },
      { type: "fault", seq: ++seq, ts: seq, action: "melt-agent", frameSeq: 1 },
    ];
    const r = recordedFaultRules(records);
    expect(r.rules).toEqual(["drop-response:method=session/prompt,count=1"]);
    expect(r.remarks).toEqual([
      expect.stringMatching(/no idempotencyKey.*next session\/prompt response in order/),
      expect.stringMatching(/kill-agent.*no frame recorded/),
      expect.stringMatching(/melt-agent.*does not know/),
    ]);
  });
});

describe("rewriteFrame", () => {
  it("maps a recorded sessionId anywhere in params and leaves an unchanged frame's bytes alone", () => {
    const raw =
      '{"jsonrpc":"2.0", "id":7,"method":"session/prompt","params":{"sessionId":"S","x":["S",{"y":"S"}]}}';
    const msg = JSON.parse(raw);
    const r = rewriteFrame(raw, msg, new Map([["S", "N"]]));
    expect(JSON.parse(r.raw)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      method: "session/prompt",
      params: { sessionId: "N", x: ["N", { y: "N" }] },
    });
    expect(rewriteFrame(raw, msg, new Map([["other", "N"]]))).toEqual({
      raw,
      changed: false,
      bounded: false,
    });
    expect(JSON.parse(rewriteFrame(raw, msg, new Map(), "replay:2:7").raw).id).toBe("replay:2:7");
  });

  it("stops at its depth bound and says so", () => {
    let deep: unknown = "S";
    for (let i = 0; i < 100; i++) deep = [deep];
    const msg = { jsonrpc: "2.0", method: "x", params: { sessionId: "S", deep } };
    const r = rewriteFrame(JSON.stringify(msg), msg, new Map([["S", "N"]]));
    expect(r.bounded).toBe(true);
    expect(JSON.parse(r.raw).params.sessionId).toBe("N");
  });
});

describe("AgentAnswers", () => {
  const options = {
    options: [
      { optionId: "ok", kind: "allow_once" },
      { optionId: "no", kind: "reject_once" },
    ],
  };
  it("gives the recorded answer when its option is offered, then the policy", () => {
    const recorded = new Map([
      [
        "session/request_permission",
        [{ body: { result: { outcome: { outcome: "selected", optionId: "ok" } } }, params: options }],
      ],
    ]);
    const a = new AgentAnswers(recorded, "deny");
    expect(a.answer("session/request_permission", options)).toMatchObject({
      body: { result: { outcome: { outcome: "selected", optionId: "ok" } } },
      how: expect.stringContaining("as recorded"),
    });
    expect(a.answer("session/request_permission", options)).toMatchObject({
      body: { result: { outcome: { outcome: "selected", optionId: "no" } } },
      how: expect.stringContaining("by --permissions deny"),
    });
  });

  it("answers allow with an allow option, and other methods without a recording with an error that says so", () => {
    const a = new AgentAnswers(new Map(), "allow");
    expect(a.answer("session/request_permission", options).body).toEqual({
      result: { outcome: { outcome: "selected", optionId: "ok" } },
    });
    const fs = a.answer("fs/read_text_file", { path: "/x" });
    expect(fs.body).toEqual({
      error: { code: -32603, message: expect.stringContaining("no 1st fs/read_text_file answer") },
    });
    const r = new AgentAnswers(new Map(), "recorded").answer("session/request_permission", options);
    expect("error" in r.body).toBe(true);
  });
});
