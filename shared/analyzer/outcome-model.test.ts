/**
 * Issue 30 items 1-4 on the one outcome model (attempt-outcome.ts): what the Agent did, what the
 * Client saw and who sent each attempt, and what the words, verdicts and OpenTelemetry read of it.
 */
import { describe, expect, it } from "vitest";
import { checkInvariants } from "../conformance/stress/invariants.js";
import type { SpanOp } from "../otel/span-description.js";
import { TraceSpans } from "../otel/trace-spans.js";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const TAP_ID = "acp-retry-inspector:retry:1";

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function only(m: TimelineModel): Submission {
  expect(m.submissions).toHaveLength(1);
  return m.submissions[0] as Submission;
}

/**
 * `lose-and-retry` as the tap writes it: the Client's prompt id 3, its answer `first` dropped, the
 * inspector's copy answered `retried`, that answer forwarded under id 3.
 */
function loseAndRetry(first: string, retried: string, keyed = true): TraceScript {
  const key = keyed ? KEY : undefined;
  const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", key); // seq 2
  t.inserted(1, 3, first, { dropped: true });
  const params: Record<string, unknown> = { sessionId: S, prompt: [{ type: "text", text: "deploy it" }] };
  if (key !== undefined) params.idempotencyKey = key;
  t.raw(
    1,
    "client->agent",
    JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
    {
      origin: "inspector",
      replaces: 3,
      copyOf: 2,
    },
  );
  t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: retried } }), {
    origin: "inspector",
  });
  const answerSeq = t.records.at(-1)?.seq as number;
  t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: 3, result: { messageId: retried } }), {
    origin: "inspector",
    replaces: TAP_ID,
    copyOf: answerSeq,
  });
  return t;
}

describe("the inspector's own retries (item 1)", () => {
  it("correct agent: the client got the retry's answer under its id; words, clientMessageId and fields say so", () => {
    const s = only(run(loseAndRetry("m1", "m1")));
    expect(s.clientMessageId).toBe("m1");
    expect(s.clientAnswered).toBe(true);
    expect(s.result).toBe("inserted once → messageId m1");
    expect(s.result).not.toMatch(/never saw/);
    const [client, retry] = s.attempts;
    expect(client?.sender).toEqual({ kind: "client" });
    expect(retry?.sender).toEqual({ kind: "inspector", role: "retry", replaces: 3 });
    expect(client?.agentEffect).toEqual({ kind: "inserted", messageId: "m1" });
    expect(retry?.agentEffect).toEqual({ kind: "deduplicated", messageId: "m1" });
    const forwarded = { kind: "forwarded", clientId: 3, retryId: TAP_ID, messageId: "m1", code: null };
    expect(client?.clientSaw).toEqual(forwarded);
    expect(retry?.clientSaw).toEqual(forwarded);
    expect(client?.words).not.toMatch(/never saw/);
    expect(client?.words).toMatch(/the client got its retry's answer \(messageId m1\) under its id 3/);
    expect(retry?.words).toMatch(/forwarded to the client under its id 3/);
    expect(s.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
  });

  it("naive agent: clientMessageId is the retry's new messageId, the one the client got; the duplicate is red", () => {
    const s = only(run(loseAndRetry("m1", "m2")));
    expect(s.clientMessageId).toBe("m2");
    expect(s.result).toBe("2 inserts (m1, m2); the client has messageId m2");
    expect(s.attempts.map((a) => a.tone)).toEqual(["ok", "violation"]);
    expect(s.verdicts.map((v) => v.name)).toEqual(["duplicate-insert"]);
  });

  it("an unkeyed prompt the inspector retried and a correct agent inserted again gets a verdict that says so", () => {
    const s = only(run(loseAndRetry("m1", "m2", false)));
    expect(s.keyStatus).toBe("absent");
    expect(s.inserts).toBe(2);
    expect(s.verdicts.map((v) => v.name)).toEqual(["unkeyed-retry-inserted"]);
    expect(s.verdicts[0]?.severity).toBe("info");
    expect(s.attempts.map((a) => a.tone)).toEqual(["ok", "warn"]); // no key: no rule broken, not red
    expect(s.clientMessageId).toBe("m2");
  });

  it("a retry answered with an error, forwarded: the client got that error, not 'never saw an answer'", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY); // seq 2
    t.inserted(1, 3, "m1", { dropped: true });
    const params = { sessionId: S, prompt: [{ type: "text", text: "deploy it" }], idempotencyKey: KEY };
    t.raw(
      1,
      "client->agent",
      JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
      {
        origin: "inspector",
        replaces: 3,
        copyOf: 2,
      },
    );
    const error = { code: -32002, message: "session not found" };
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, error }), { origin: "inspector" });
    const answerSeq = t.records.at(-1)?.seq as number;
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: 3, error }), {
      origin: "inspector",
      replaces: TAP_ID,
      copyOf: answerSeq,
    });
    const s = only(run(t));
    expect(s.attempts[0]?.clientSaw).toMatchObject({
      kind: "forwarded",
      clientId: 3,
      code: -32002,
      messageId: null,
    });
    expect(s.clientAnswered).toBe(true);
    expect(s.clientMessageId).toBeNull();
    expect(s.result).toBe("inserted → messageId m1, but the client got error -32002 and no messageId");
    expect(s.verdicts.map((v) => v.name)).not.toContain("unresolved");
  });

  it("a retry still pending: the client has seen nothing yet, not 'never'", () => {
    const t = loseAndRetry("m1", "m1");
    t.records.splice(t.records.length - 2); // the retry's answer and its forwarded copy never came
    const s = only(run(t));
    expect(s.attempts[0]?.clientSaw).toEqual({ kind: "nothing-yet" });
    expect(s.clientMessageId).toBeNull();
    expect(s.clientAnswered).toBe(false);
  });

  it("an inspector retry the client never asked for (fault retry) is not what the client saw", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY);
    const params = { sessionId: S, prompt: [{ type: "text", text: "deploy it" }], idempotencyKey: KEY };
    t.raw(
      1,
      "client->agent",
      JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
      {
        origin: "inspector",
        replaces: 3,
        copyOf: 2,
      },
    );
    t.inserted(1, 3, "m1");
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "m1" } }), {
      origin: "inspector",
    });
    const s = only(run(t));
    expect(s.attempts[0]?.clientSaw).toEqual({ kind: "answer", messageId: "m1" });
    expect(s.attempts[1]?.clientSaw).toEqual({ kind: "nothing-ever", why: "not-forwarded" });
    expect(s.clientMessageId).toBe("m1");
  });
});

describe("a held frame belongs to the agent it is delivered to (item 2)", () => {
  /** Prompt 2 held by a delay while the agent is killed and restarted, then released and answered. */
  function heldAcrossRestart(fate: "released" | "undelivered"): TraceScript {
    const t = new TraceScript().spawn(100).open(1).prompt(1, 3, S, "first", "k-1"); // seq 3
    t.prompt(1, 4, S, "second", "k-2"); // seq 4
    const held = t.records.at(-1);
    if (held?.type === "frame") (held as { held?: true }).held = true;
    t.record({ type: "fault", action: "delay", ruleId: "r1", conn: 1, frameSeq: 4, detail: "holding 50 ms" });
    t.inserted(1, 3, "m1");
    t.exit(100, null, "SIGKILL").spawn(101);
    t.record({ type: "fault", action: "delay", ruleId: "r1", conn: 1, frameSeq: 4, fate, detail: "x" });
    if (fate === "released") t.inserted(1, 4, "m2");
    return t;
  }

  it("released to the restarted agent and answered: inserted, seen by the client, no false 'lost'", () => {
    const m = run(heldAcrossRestart("released"));
    const second = m.submissions.find((s) => s.key === "k-2") as Submission;
    expect(second.attempts[0]?.agentEffect).toEqual({ kind: "inserted", messageId: "m2" });
    expect(second.attempts[0]?.clientSaw).toEqual({ kind: "answer", messageId: "m2" });
    expect(second.result).toBe("inserted once → messageId m2");
    expect(checkInvariants(m, ["k-1", "k-2"])).toEqual([]);
  });

  it("an answer held while its agent exits, then released: the client saw it", () => {
    const t = new TraceScript().spawn(100).open(1).prompt(1, 3, S, "first", "k-1");
    t.inserted(1, 3, "m1");
    const held = t.records.at(-1);
    if (held?.type === "frame") (held as { held?: true }).held = true;
    const frameSeq = held?.seq as number;
    t.record({ type: "fault", action: "delay", ruleId: "r1", conn: 1, frameSeq, detail: "holding 50 ms" });
    t.exit(100, null, "SIGKILL").spawn(101);
    t.record({
      type: "fault",
      action: "delay",
      ruleId: "r1",
      conn: 1,
      frameSeq,
      fate: "released",
      detail: "x",
    });
    const s = only(run(t));
    expect(s.attempts[0]?.agentEffect).toEqual({ kind: "inserted", messageId: "m1" });
    expect(s.attempts[0]?.clientSaw).toEqual({ kind: "answer", messageId: "m1" });
    expect(s.verdicts.map((v) => v.name)).toEqual(["single"]);
  });

  it("never delivered: the agent never saw it (not 'the agent died')", () => {
    const m = run(heldAcrossRestart("undelivered"));
    const second = m.submissions.find((s) => s.key === "k-2") as Submission;
    expect(second.attempts[0]?.agentEffect).toEqual({ kind: "not-delivered" });
    expect(second.attempts[0]?.words).toBe(
      "request held by a delay and never delivered: the Agent never saw it",
    );
  });
});

describe("colour speaks about the agent and the RFD (item 3)", () => {
  /** The Client's own keyed retry after its first answer was dropped; the agent answers `second`. */
  function clientRetry(second: string): Submission {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY);
    t.inserted(1, 3, "m1", { dropped: true });
    t.prompt(1, 4, S, "deploy it", KEY).inserted(1, 4, second);
    return only(run(t));
  }

  it("correct story: a dedup whose first answer was dropped is green on both attempts", () => {
    const s = clientRetry("m1");
    expect(s.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(s.attempts.map((a) => a.tone)).toEqual(["ok", "ok"]);
    expect(s.attempts[0]?.clientSaw).toEqual({ kind: "nothing-ever", why: "answer-dropped" });
  });

  it("naive story: the attempt that inserted the duplicate is red", () => {
    const s = clientRetry("m2");
    expect(s.verdicts.map((v) => v.name)).toEqual(["duplicate-insert"]);
    expect(s.attempts.map((a) => a.tone)).toEqual(["ok", "violation"]);
  });

  it("an answer lost with the agent is neither green nor red: unknown", () => {
    const t = new TraceScript().spawn(100).open(1).prompt(1, 3, S, "deploy it", KEY).exit(100);
    const s = only(run(t));
    expect(s.attempts[0]?.agentEffect).toEqual({ kind: "unknown", cause: "agent-exit" });
    expect(s.attempts[0]?.tone).toBe("unknown");
  });
});

describe("OpenTelemetry reads the model (item 4)", () => {
  function rootClose(t: TraceScript): Extract<SpanOp, { op: "close" }> {
    const spans = new TraceSpans(null, { includePrompts: false });
    const ops: SpanOp[] = [];
    for (const r of t.records) {
      spans.ingest(r);
      ops.push(...spans.take());
    }
    ops.push(...spans.finish());
    const close = ops.find((o) => o.op === "close");
    if (close?.op !== "close") throw new Error("no root span closed");
    return close;
  }

  it("after lose-and-retry the root's acp.message_id is what the client got, and it is settled", () => {
    const close = rootClose(loseAndRetry("m1", "m2"));
    expect(close.attributes["acp.message_id"]).toBe("m2");
    expect(close.attributes["acp.settled"]).toBe(true);
  });

  it("when the client saw nothing the root is not settled and names no messageId", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy it", KEY);
    t.inserted(1, 3, "m1", { dropped: true });
    const close = rootClose(t);
    expect(close.attributes["acp.settled"]).toBe(false);
    expect(close.attributes["acp.message_id"]).toBeUndefined();
  });
});
