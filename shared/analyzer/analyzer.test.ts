import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";
import type { VerdictName } from "./verdicts.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  a.ingestHeader(t.header());
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function names(s: Submission | undefined): VerdictName[] {
  return (s?.verdicts ?? []).map((v) => v.name);
}

function only(m: TimelineModel): Submission {
  expect(m.submissions).toHaveLength(1);
  return m.submissions[0] as Submission;
}

describe("verdict single", () => {
  it("fires for one answered attempt", () => {
    const m = run(new TraceScript().open(1).prompt(1, 1, S, "hello", KEY).inserted(1, 1, "m1"));
    const s = only(m);
    expect(names(s)).toEqual(["single"]);
    expect(s.attempts[0]?.outcome).toEqual({ kind: "inserted", messageId: "m1" });
    expect(s.finalMessageId).toBe("m1");
    expect(s.inserts).toBe(1);
    expect(s.attempts[0]?.latencyMs).toBe(1);
  });
  it("does not fire while the only attempt is pending or when it was lost", () => {
    expect(names(only(run(new TraceScript().prompt(1, 1, S, "hello", KEY))))).toEqual([]);
    const lost = only(run(new TraceScript().open(1).prompt(1, 1, S, "hello", KEY).close(1)));
    expect(names(lost)).toEqual(["unresolved"]);
  });
});

describe("verdict deduplicated", () => {
  it("fires when a retry on a new connection gets the original messageId", () => {
    const t = new TraceScript()
      .open(1)
      .prompt(1, 7, S, "hello", KEY)
      .userMessage(1, S, "m1")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hello", KEY)
      .inserted(2, 1, "m1");
    const s = only(run(t));
    expect(names(s)).toEqual(["deduplicated"]);
    expect(s.attempts.map((a) => a.outcome.kind)).toEqual(["lost", "inserted"]);
    expect(s.attempts.map((a) => a.conn)).toEqual([1, 2]);
    expect(s.inserts).toBe(1);
  });
  it("does not fire when the retry got another messageId", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m2");
    expect(names(only(run(t)))).toEqual(["duplicate-insert"]);
  });
});

describe("dropped responses", () => {
  it("keep the Agent's answer, count its insert and leave the Client unanswered", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m1");
    const s = only(run(t));
    expect(s.attempts[0]?.outcome).toEqual({
      kind: "dropped",
      frame: "response",
      seq: 2,
      answer: { kind: "inserted", messageId: "m1" },
    });
    expect(names(s)).toEqual(["deduplicated"]);
    expect(s.inserts).toBe(1);
  });
});

describe("verdict retried-after-error", () => {
  it("fires for an error followed by an insert with the same key", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .error(1, 1, -32603, "boom")
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m1");
    expect(names(only(run(t)))).toEqual(["retried-after-error"]);
  });
  it("does not fire when no retry was inserted", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .error(1, 1, -32603)
      .prompt(1, 2, S, "hi", KEY)
      .error(1, 2, -32603);
    expect(names(only(run(t)))).toEqual([]);
  });
});

describe("verdict duplicate-insert", () => {
  it("fires for two distinct messageIds answered to one key", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m2");
    const m = run(t);
    expect(only(m).messageIds).toEqual(["m1", "m2"]);
    expect(m.verdictCounts["duplicate-insert"]).toBe(1);
  });
  it("fires for a second insert seen only as a user_message of a lost attempt", () => {
    const t = new TraceScript()
      .open(1)
      .prompt(1, 1, S, "hi", KEY)
      .userMessage(1, S, "m1")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hi", KEY)
      .inserted(2, 1, "m2");
    const s = only(run(t));
    expect(names(s)).toEqual(["duplicate-insert"]);
    expect(s.inserts).toBe(2);
    expect(s.verdicts[0]?.seqs).toEqual([3, 7]);
  });
  it("does not fire when every answer and update name one message", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .userMessage(1, S, "m1")
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m1")
      .userMessage(1, S, "m1");
    expect(names(only(run(t)))).toEqual(["deduplicated"]);
  });
  it("treats the same key in another session as an unrelated submission", () => {
    const t = new TraceScript()
      .prompt(1, 1, "a", "hi", KEY)
      .inserted(1, 1, "m1")
      .prompt(1, 2, "b", "hi", KEY)
      .inserted(1, 2, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([["single"], ["single"]]);
  });
});

describe("verdict invalid-key-accepted", () => {
  it("fires when an empty key is answered with a messageId", () => {
    const s = only(run(new TraceScript().prompt(1, 1, S, "hi", "").inserted(1, 1, "m1")));
    expect(s.keyStatus).toBe("invalid");
    expect(names(s)).toEqual(["invalid-key-accepted"]);
  });
  it("fires when a numeric key is answered with another error code", () => {
    expect(names(only(run(new TraceScript().prompt(1, 1, S, "hi", 42).error(1, 1, -32603))))).toEqual([
      "invalid-key-accepted",
    ]);
  });
  it("does not fire when the malformed key is rejected with -32602", () => {
    const long = "k".repeat(256);
    const s = only(run(new TraceScript().prompt(1, 1, S, "hi", long).error(1, 1, -32602, "Invalid params")));
    expect(names(s)).toEqual(["single"]);
    expect(s.invalidKey?.reason).toContain("256");
  });
});

describe("verdict key-leaked", () => {
  it("fires when an Agent frame carries the key as a value", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .notify(1, A2C, "session/update", { sessionId: S, update: { sessionUpdate: "x" }, _meta: { k: KEY } })
      .inserted(1, 1, "m1");
    const s = only(run(t));
    expect(names(s)).toEqual(["key-leaked"]);
    expect(s.verdicts[0]?.seqs).toEqual([2]);
  });
  it("fires when the key is inside longer Agent text, at any offset", () => {
    for (const pad of ["", "a", "abcdefg", "0123456789abc"]) {
      const t = new TraceScript()
        .prompt(1, 1, S, "hi", KEY)
        .inserted(1, 1, "m1")
        .notify(1, A2C, "session/update", {
          sessionId: S,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `${pad}key=${KEY}!` },
          },
        });
      expect(names(only(run(t)))).toEqual(["key-leaked"]);
    }
  });
  it("does not fire for the Client's own frames, keys short of the minimum, or unrelated text", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "yo", "abc")
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "x", text: "abc", other: KEY.slice(0, 20) },
      })
      .inserted(1, 2, "m2");
    expect(run(t).submissions.map(names)).toEqual([["single"], ["single"]]);
  });
});

describe("verdict cancel-not-propagated", () => {
  it("fires when one pending attempt is cancelled and another inserted", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .prompt(1, 2, S, "hi", KEY)
      .cancelRequest(1, 1)
      .error(1, 1, -32800, "cancelled")
      .inserted(1, 2, "m1");
    const s = only(run(t));
    expect(names(s)).toEqual(["cancel-not-propagated"]);
    expect(s.attempts[0]?.cancelSeq).toBe(3);
  });
  it("does not fire when every pending attempt is answered -32800", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .prompt(1, 2, S, "hi", KEY)
      .cancelRequest(1, 1)
      .error(1, 1, -32800)
      .error(1, 2, -32800);
    const s = only(run(t));
    // Every attempt was answered -32800 as the RFD asks: the submission was withdrawn.
    expect(names(s)).toEqual(["withdrawn"]);
    expect(s.attempts.map((a) => a.outcome.kind)).toEqual(["cancelled", "cancelled"]);
  });
});

describe("verdict key-reused-different-prompt", () => {
  it("fires when a key comes back with another prompt", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "bye", KEY)
      .inserted(1, 2, "m1");
    expect(names(only(run(t)))).toEqual(["key-reused-different-prompt"]);
  });
  it("does not fire for the same prompt with keys in another order", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1")
      .request(1, C2A, 2, "session/prompt", {
        prompt: [{ text: "hi", type: "text" }],
        idempotencyKey: KEY,
        sessionId: S,
      })
      .inserted(1, 2, "m1");
    expect(names(only(run(t)))).toEqual(["deduplicated"]);
  });
});

describe("verdict unresolved", () => {
  it("fires when every attempt was lost or dropped", () => {
    const t = new TraceScript()
      .spawn(9)
      .open(1)
      .prompt(1, 1, S, "hi", KEY)
      .exit(9)
      .open(2)
      .prompt(2, 1, S, "hi", KEY, { dropped: true });
    const s = only(run(t));
    expect(names(s)).toEqual(["unresolved"]);
    expect(s.attempts.map((a) => a.outcome.kind)).toEqual(["lost", "dropped"]);
  });
  it("does not fire once a retry is answered, nor while one is pending", () => {
    const base = () =>
      new TraceScript().open(1).prompt(1, 1, S, "hi", KEY).close(1).open(2).prompt(2, 1, S, "hi", KEY);
    expect(names(only(run(base())))).toEqual([]);
    expect(names(only(run(base().inserted(2, 1, "m1"))))).toEqual(["deduplicated"]);
  });
});

describe("verdict unkeyed-resend", () => {
  it("fires for an identical unkeyed prompt after a lost answer", () => {
    const t = new TraceScript()
      .open(1)
      .prompt(1, 1, S, "hi")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hi")
      .inserted(2, 1, "m2");
    const m = run(t);
    // The resend settles the original: one resend is one Client issue, not two.
    expect(m.submissions.map(names)).toEqual([[], ["unkeyed-resend"]]);
    expect(m.submissions[1]?.resendOf).toBe(m.submissions[0]?.id);
    expect(m.submissions[0]?.resentAs).toBe(m.submissions[1]?.id);
  });
  it("does not fire for a different prompt, or after an answered one", () => {
    const other = new TraceScript()
      .open(1)
      .prompt(1, 1, S, "hi")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "other")
      .inserted(2, 1, "m2");
    expect(run(other).submissions.map(names)).toEqual([["unresolved"], ["single"]]);
    const answered = new TraceScript()
      .prompt(1, 1, S, "hi")
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi")
      .inserted(1, 2, "m2");
    expect(run(answered).submissions.map(names)).toEqual([["single"], ["single"]]);
  });
});

describe("verdict duplicating-resend", () => {
  const params = { cwd: "/w", mcpServers: [] };
  it("fires for session/new resent after its answer was dropped", () => {
    const t = new TraceScript()
      .request(1, C2A, 1, "session/new", params)
      .result(1, A2C, 1, { sessionId: "s-a" }, { dropped: true })
      .request(1, C2A, 2, "session/new", params)
      .result(1, A2C, 2, { sessionId: "s-b" });
    const m = run(t);
    expect(m.requests.map((r) => r.verdicts.map((v) => v.name))).toEqual([[], ["duplicating-resend"]]);
    expect(m.requests[0]?.outcome.kind).toBe("dropped");
    expect(m.requests[1]?.createdSessionId).toBe("s-b");
    expect(m.verdictCounts["duplicating-resend"]).toBe(1);
  });
  it("does not fire when the first session/fork was answered", () => {
    const fork = { sessionId: S, cwd: "/w" };
    const t = new TraceScript()
      .request(1, C2A, 1, "session/fork", fork)
      .result(1, A2C, 1, { sessionId: "f1" })
      .request(1, C2A, 2, "session/fork", fork)
      .result(1, A2C, 2, { sessionId: "f2" });
    expect(run(t).verdictCounts["duplicating-resend"]).toBe(0);
  });
});

describe("request rows", () => {
  it("carry the retry class, unclassified for unknown methods, and flag unmatched responses", () => {
    const t = new TraceScript()
      .request(1, C2A, 1, "session/close", { sessionId: S })
      .result(1, A2C, 1, {})
      .request(1, A2C, 1, "session/request_permission", { sessionId: S })
      .result(1, C2A, 1, { outcome: { outcome: "cancelled" } })
      .request(1, C2A, 2, "_vendor/thing", {})
      .result(1, A2C, 99, {});
    const m = run(t);
    expect(m.requests.map((r) => [r.method, r.retryClass, r.outcome.kind, r.unmatched])).toEqual([
      ["session/close", "safe", "answered", false],
      ["session/request_permission", "not-resent", "answered", false],
      ["_vendor/thing", "unclassified", "pending", false],
      [null, "unclassified", "answered", true],
    ]);
    expect(m.requests[1]?.dir).toBe(A2C);
  });
  it("pairs the same id live in both directions separately", () => {
    const t = new TraceScript()
      .request(1, C2A, 1, "session/list", {})
      .request(1, A2C, 1, "fs/read_text_file", { path: "/x" })
      .result(1, C2A, 1, { content: "" })
      .result(1, A2C, 1, { sessions: [] });
    const m = run(t);
    expect(m.requests.map((r) => [r.method, r.responseSeq])).toEqual([
      ["session/list", 4],
      ["fs/read_text_file", 3],
    ]);
  });
  it("loses pending requests of every open connection when the agent exits", () => {
    const t = new TraceScript()
      .spawn(5)
      .open(1)
      .open(2)
      .request(1, C2A, 1, "session/list", {})
      .request(2, C2A, 1, "session/list", {})
      .close(2)
      .stderr(5, "panic")
      .exit(5, null, "SIGKILL");
    const m = run(t);
    expect(m.requests.map((r) => r.outcome.kind === "lost" && r.outcome.reason)).toEqual([
      "agent 5 exited (SIGKILL)",
      "connection #2 closed: client closed",
    ]);
    expect(m.agents[0]).toMatchObject({ pid: 5, exitSignal: "SIGKILL", stderrLines: 1 });
  });
});

describe("malformed frames, v1 traces, notifications", () => {
  it("keeps malformed and flagged frames as rows", () => {
    const t = new TraceScript()
      .raw(1, A2C, "not json")
      .raw(1, A2C, "AAEC", { encoding: "base64", flags: ["not-utf8"] })
      .raw(1, C2A, '{"jsonrpc":"2.0","id":1,"method":"session/pro', { flags: ["unterminated"] })
      .raw(1, C2A, "[]");
    const m = run(t);
    expect(m.malformed.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(m.malformed[1]?.encoding).toBe("base64");
    expect(m.malformed[3]?.reason).toContain("batch");
    expect(m.frames).toBe(4);
  });
  it("builds a correct timeline from a v1 trace without keys", () => {
    const t = new TraceScript()
      .open(1)
      .request(1, C2A, 0, "initialize", { protocolVersion: 1, clientCapabilities: {} })
      .result(1, A2C, 0, { protocolVersion: 1, agentCapabilities: {} })
      .request(1, C2A, 1, "session/new", { cwd: "/w", mcpServers: [] })
      .result(1, A2C, 1, { sessionId: S })
      .prompt(1, 2, S, "hello v1")
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
      })
      .result(1, A2C, 2, { stopReason: "end_turn" });
    const m = run(t);
    const s = only(m);
    expect(s.key).toBeNull();
    expect(s.attempts[0]?.outcome).toEqual({ kind: "inserted", messageId: null, stopReason: "end_turn" });
    expect(names(s)).toEqual(["single"]);
    expect(s.inserts).toBe(1);
    expect(s.promptPreview).toBe("hello v1");
    expect(m.connections[0]?.protocolVersion).toBe(1);
    expect(m.notifications).toEqual([
      { method: "session/update", retryClass: "not-resent", count: 1, lastSeq: 7 },
    ]);
  });
  it("does not attribute replayed user messages to a pending prompt", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .request(1, C2A, 2, "session/resume", { sessionId: S, replayFrom: { type: "start" } })
      .userMessage(1, S, "old-1")
      .result(1, A2C, 2, {})
      .inserted(1, 1, "m1");
    expect(only(run(t)).messageIds).toEqual(["m1"]);
  });
});

describe("live changes", () => {
  it("reports only rows changed since the last look, as copies, with a growing revision", () => {
    const a = new Analyzer();
    const t = new TraceScript().open(1).prompt(1, 1, S, "hi", KEY).request(1, C2A, 2, "session/list", {});
    for (const r of t.records) a.ingest(r);
    const first = a.takeChanges();
    expect(first.submissions).toHaveLength(1);
    expect(first.requests).toHaveLength(1);
    expect(first.connections).toHaveLength(1);
    const t2 = new TraceScript(2_000_000_000_000).inserted(1, 1, "m1");
    for (const r of t2.records) a.ingest({ ...r, seq: r.seq + 3 });
    const second = a.takeChanges();
    expect(second.revision).toBeGreaterThan(first.revision);
    expect(second.submissions.map((s) => s.attempts[0]?.outcome.kind)).toEqual(["inserted"]);
    expect(second.requests).toHaveLength(0);
    expect(first.submissions[0]?.attempts[0]?.outcome.kind).toBe("pending");
    expect(second.submissions[0]?.rev).toBe(second.revision);
    expect(second.verdictCounts.single).toBe(1);
    expect(a.takeChanges().submissions).toHaveLength(0);
    expect(JSON.parse(JSON.stringify(a.model())).submissions[0].verdicts[0].name).toBe("single");
  });
});
