/** The words of each attempt and submission, each from a handcrafted trace (issue 13, "The words"). */
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
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function only(m: TimelineModel): Submission {
  expect(m.submissions).toHaveLength(1);
  return m.submissions[0] as Submission;
}

function names(s: Submission | undefined): VerdictName[] {
  return (s?.verdicts ?? []).map((v) => v.name);
}

function words(s: Submission): string[] {
  return s.attempts.map((a) => a.words);
}

/** Every string the model says about a submission: its result, its attempts' words, its verdicts' details. */
function everything(s: Submission): string {
  return [s.result, ...words(s), ...s.verdicts.map((v) => v.detail)].join("\n");
}

function v2(t: TraceScript, conn = 1): TraceScript {
  return t
    .request(conn, C2A, 0, "initialize", { protocolVersion: 2, clientCapabilities: {} })
    .result(conn, A2C, 0, { protocolVersion: 2 });
}

function v1(t: TraceScript, conn = 1): TraceScript {
  return t
    .request(conn, C2A, 0, "initialize", { protocolVersion: 1, clientCapabilities: {} })
    .result(conn, A2C, 0, { protocolVersion: 1, agentCapabilities: {} });
}

describe("the words of an attempt", () => {
  it("an insert whose answer the inspector dropped: inserted, and the client never saw it", () => {
    const s = only(
      run(v2(new TraceScript().open(1)).prompt(1, 1, S, "hi", KEY).inserted(1, 1, "m1", { dropped: true })),
    );
    expect(words(s)).toEqual([
      "inserted → messageId m1; answer dropped by the inspector: the client never saw it",
    ]);
    expect(s.attempts[0]?.effect).toBe("inserted");
    expect(s.clientMessageId).toBeNull();
    expect(s.finalMessageId).toBe("m1");
    expect(s.result).toBe("inserted → messageId m1, but the client never saw an answer");
  });

  it("while the client still waits, the result does not give it the dropped answer's messageId", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", KEY);
    const s = only(run(t));
    expect(words(s)).toEqual([
      "inserted → messageId m1; answer dropped by the inspector: the client never saw it",
      "pending (held)",
    ]);
    expect(s.clientMessageId).toBeNull();
    expect(s.result).toBe("pending; the Agent inserted messageId m1, the client has not seen it yet");
    expect(s.result).not.toMatch(/^inserted|→ messageId/);
  });

  it("a deduplicated retry is answered with the original messageId, not labelled inserted", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m1");
    const s = only(run(t));
    expect(words(s)).toEqual([
      "inserted → messageId m1; answer dropped by the inspector: the client never saw it",
      "answered with the original messageId m1 (no new insert)",
    ]);
    expect(s.attempts.map((a) => a.effect)).toEqual(["inserted", "original"]);
    expect(s.clientMessageId).toBe("m1");
    expect(s.result).toBe("inserted once → messageId m1");
    expect(names(s)).toEqual(["deduplicated"]);
  });

  it("a retry after a lost answer whose user_message came first is the original too", () => {
    const t = new TraceScript()
      .open(1)
      .prompt(1, 7, S, "hi", KEY)
      .userMessage(1, S, "m1")
      .close(1, "EOF")
      .open(2)
      .prompt(2, 1, S, "hi", KEY)
      .inserted(2, 1, "m1");
    const s = only(run(t));
    expect(words(s)).toEqual([
      "lost: connection #1 closed before the answer, after a user message update showed it inserted → messageId m1",
      "answered with the original messageId m1 (no new insert)",
    ]);
  });

  it("cancelled attempts: cancelled (-32800) before insertion, withdrawn, never pending", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .prompt(1, 2, S, "hi", KEY)
      .cancelRequest(1, 2)
      .error(1, 1, -32800, "cancelled")
      .error(1, 2, -32800, "cancelled");
    const s = only(run(t));
    expect(words(s)).toEqual(["cancelled (-32800) before insertion", "cancelled (-32800) before insertion"]);
    expect(s.attempts.map((a) => a.effect)).toEqual(["cancelled", "cancelled"]);
    expect(names(s)).toEqual(["withdrawn"]);
    expect(s.result).toBe("withdrawn: every attempt cancelled (-32800), nothing inserted");
    expect(everything(s)).not.toMatch(/pending/);
  });

  it("an agent killed after the user message showed: lost, but inserted, and the client never saw it", () => {
    const t = v2(new TraceScript().spawn(9).open(1))
      .prompt(1, 1, S, "hi", KEY)
      .userMessage(1, S, "m1")
      .exit(9, null, "SIGKILL");
    const s = only(run(t));
    expect(words(s)).toEqual([
      "lost: the agent died before answering, after a user message update showed it inserted → messageId m1",
    ]);
    expect(s.attempts[0]?.effect).toBe("inserted");
    expect(s.result).toBe("inserted → messageId m1, but the client never saw an answer");
    expect(s.clientMessageId).toBeNull();
  });

  it("an agent killed mid-turn: lost, whether it inserted is unknown, never 'not inserted'", () => {
    const t = v2(new TraceScript().spawn(9).open(1))
      .prompt(1, 1, S, "hi", KEY)
      .exit(9, null, "SIGKILL")
      .close(1);
    const s = only(run(t));
    expect(words(s)).toEqual(["lost: the agent died before answering; whether it inserted is unknown"]);
    expect(s.attempts[0]?.effect).toBe("unknown");
    expect(s.result).toBe("unknown: no answer reached the client; whether it inserted is unknown");
    expect(everything(s)).not.toMatch(/not inserted/);
  });

  it("a pending prompt is pending (held); a v1 one waits for the end of its turn", () => {
    expect(words(only(run(v2(new TraceScript().open(1)).prompt(1, 1, S, "hi", KEY))))).toEqual([
      "pending (held)",
    ]);
    const old = only(run(v1(new TraceScript().open(1)).prompt(1, 1, S, "hi")));
    expect(words(old)).toEqual(["pending (a v1 answer comes at the end of the turn)"]);
  });

  it("an error answer: not inserted (v2), unknown in v1", () => {
    const s = only(run(v2(new TraceScript().open(1)).prompt(1, 1, S, "hi", KEY).error(1, 1, -32603, "boom")));
    expect(words(s)).toEqual(["error -32603 (boom): not inserted"]);
    expect(s.result).toBe("not inserted (error -32603)");
    const old = only(run(v1(new TraceScript().open(1)).prompt(1, 1, S, "hi").error(1, 1, -32603, "boom")));
    expect(words(old)).toEqual(["error -32603 (boom); v1: whether it inserted is unknown"]);
    expect(everything(old)).not.toMatch(/not inserted/);
  });

  it("a dropped request never reached the Agent", () => {
    const s = only(run(new TraceScript().open(1).prompt(1, 1, S, "hi", KEY, { dropped: true })));
    expect(words(s)).toEqual(["request dropped by the inspector: the Agent never saw it"]);
    expect(s.attempts[0]?.effect).toBe("not-delivered");
  });

  it("a v1 answer inserted without a messageId", () => {
    const s = only(
      run(v1(new TraceScript().open(1)).prompt(1, 1, S, "hi").result(1, A2C, 1, { stopReason: "end_turn" })),
    );
    expect(words(s)).toEqual([
      "inserted (v1 answer at the end of the turn, stopReason end_turn; v1 has no messageId)",
    ]);
    expect(s.result).toBe("inserted (v1 answer, no messageId)");
    expect(s.protocolVersion).toBe(1);
  });

  it("a v2 answer without a messageId is never called a v1 answer", () => {
    const s = only(
      run(
        v2(new TraceScript().open(1))
          .prompt(1, 1, S, "hi", KEY)
          .result(1, A2C, 1, { stopReason: "end_turn" }),
      ),
    );
    expect(words(s)).toEqual(["inserted (the answer carried no messageId, which v2 requires)"]);
    expect(s.result).toBe("inserted (the answer carried no messageId, which v2 requires)");
    expect(everything(s)).not.toMatch(/v1/);
  });

  it("a connection closed without a reason reads as closed, never 'undefined'", () => {
    const t = new TraceScript().open(1).prompt(1, 1, S, "hi", KEY);
    t.records.push({ type: "conn-close", seq: 99, ts: t.startTs + 99, conn: 1 } as never);
    const m = run(t);
    expect(m.connections[0]?.closeReason).toBeNull();
    const s = only(m);
    expect(s.attempts[0]?.outcome).toMatchObject({
      kind: "lost",
      reason: "connection #1 closed",
      cause: "conn-close",
    });
    expect(everything(s)).not.toMatch(/undefined/);
  });
});

describe("verdict texts agree with their rows and cite what the user can see", () => {
  it("unresolved on a dropped insert says what the row says, not that the input may be lost", () => {
    const s = only(
      run(v2(new TraceScript().open(1)).prompt(1, 3, S, "hi", KEY).inserted(1, 3, "m1", { dropped: true })),
    );
    expect(names(s)).toEqual(["unresolved"]);
    const detail = s.verdicts[0]?.detail ?? "";
    expect(detail).toContain("conn #1 id 3 (seq 4): inserted → messageId m1");
    expect(detail).not.toMatch(/may be lost/);
  });

  it("a resend names the earlier prompt by connection, JSON-RPC id and seq, never by row number", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 5, S, "hi")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hi")
      .inserted(2, 1, "m2");
    const m = run(t);
    const resend = m.submissions[1] as Submission;
    expect(names(resend)).toEqual(["unkeyed-resend"]);
    expect(resend.verdicts[0]?.detail).toBe(
      "resends conn #1 id 5 (seq 4) without a key after its answer was lost",
    );
    expect(resend.verdicts[0]?.detail).not.toMatch(/submission/);
  });

  it("a duplicating resend names the earlier request by connection, id and seq", () => {
    const t = new TraceScript()
      .request(1, C2A, 4, "session/new", { cwd: "/w", mcpServers: [] })
      .result(1, A2C, 4, { sessionId: "sx" }, { dropped: true })
      .request(1, C2A, 5, "session/new", { cwd: "/w", mcpServers: [] });
    const row = run(t).requests[1];
    expect(row?.verdicts[0]?.detail).toBe(
      "session/new resent with the same params after the answer to conn #1 id 4 (seq 1) was lost",
    );
  });
});

describe("frames the tap sent itself", () => {
  it("are marked with their origin and never judged as the Client's", () => {
    const t = v2(new TraceScript().open(1))
      .raw(
        1,
        C2A,
        JSON.stringify({ jsonrpc: "2.0", id: 90, method: "initialize", params: { protocolVersion: 2 } }),
        {
          origin: "tap",
        },
      )
      .raw(1, A2C, JSON.stringify({ jsonrpc: "2.0", id: 90, result: { protocolVersion: 2 } }), {
        origin: "tap",
      })
      .prompt(1, 1, S, "hi")
      .close(1)
      .open(2);
    // A prompt the tap sent (an inspector retry): no unkeyed-resend, and the original stays unresolved.
    t.raw(
      2,
      C2A,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 91,
        method: "session/prompt",
        params: { sessionId: S, prompt: [{ type: "text", text: "hi" }] },
      }),
      { origin: "tap" },
    ).inserted(2, 91, "m9");
    const m = run(t);
    const init = m.requests.filter((r) => r.method === "initialize");
    expect(init.map((r) => r.origin)).toEqual([undefined, "tap"]);
    expect(m.submissions.map(names)).toEqual([["unresolved"], []]);
    expect(m.submissions[1]?.attempts[0]?.origin).toBe("tap");
    expect(m.submissions[1]?.resendOf).toBeNull();
    expect(m.verdictCounts["unkeyed-resend"]).toBe(0);
  });
});

describe("v1 sessions are judged by what v1 promises", () => {
  it("a lost answer is information, not a Client issue citing a v2 rule", () => {
    const s = only(run(v1(new TraceScript().open(1)).prompt(1, 1, S, "hi").close(1)));
    expect(s.verdicts.map((v) => [v.name, v.severity])).toEqual([["v1-answer-lost", "info"]]);
  });

  it("a resend after an error is linked, and is information: it may insert twice", () => {
    const t = v1(new TraceScript().open(1))
      .prompt(1, 1, S, "hi")
      .error(1, 1, -32603, "Internal error")
      .prompt(1, 2, S, "hi")
      .result(1, A2C, 2, { stopReason: "end_turn" });
    const m = run(t);
    expect(m.submissions).toHaveLength(2);
    const [first, resend] = m.submissions as [Submission, Submission];
    expect(resend.resendOf).toBe(first.id);
    expect(first.resentAs).toBe(resend.id);
    expect(names(first)).toEqual([]);
    expect(resend.verdicts.map((v) => [v.name, v.severity])).toEqual([["v1-resend", "info"]]);
    expect(resend.verdicts[0]?.detail).toBe(
      "v1 has no keys: this resend may insert twice (it repeats conn #1 id 1 (seq 4) after its error answer)",
    );
    expect(m.verdictCounts["unkeyed-resend"] + m.verdictCounts.unresolved + m.verdictCounts.single).toBe(0);
  });

  it("a resend after a lost answer counts once, as information", () => {
    const t = v1(new TraceScript().open(1))
      .prompt(1, 1, S, "hi")
      .result(1, A2C, 1, { stopReason: "end_turn" }, { dropped: true })
      .prompt(1, 2, S, "hi")
      .result(1, A2C, 2, { stopReason: "end_turn" });
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([[], ["v1-resend"]]);
    expect(m.verdictCounts["unkeyed-resend"]).toBe(0);
  });
});

describe("v1 sessions, keyed", () => {
  it("a v1 Agent inserting twice under one key is information, not a v2 violation", () => {
    const t = v1(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .result(1, A2C, 1, { stopReason: "end_turn" }, { dropped: true })
      .prompt(1, 2, S, "hi", KEY)
      .result(1, A2C, 2, { stopReason: "end_turn" });
    const m = run(t);
    const s = only(m);
    expect(s.verdicts.map((v) => [v.name, v.severity])).toEqual([["v1-resend", "info"]]);
    expect(s.verdicts[0]?.detail).toBe(
      "v1 has no keys: 1 retry(s) of conn #1 id 1 (seq 4) under the same key may insert twice, and it did: 2 inserts",
    );
    expect(m.verdictCounts["duplicate-insert"]).toBe(0);
  });

  it("a v2 connection answering with a bare stopReason is still judged by v2", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .result(1, A2C, 1, { stopReason: "end_turn" })
      .prompt(1, 2, S, "hi", KEY)
      .result(1, A2C, 2, { stopReason: "end_turn" });
    expect(names(only(run(t)))).toEqual(["duplicate-insert"]);
  });
});

describe("a resend after an error answer (v2)", () => {
  it("is linked to what it resends and judged retried-after-error, not two singles", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi")
      .error(1, 1, -32700, "Parse error")
      .prompt(1, 2, S, "hi")
      .inserted(1, 2, "m1");
    const m = run(t);
    const [first, resend] = m.submissions as [Submission, Submission];
    expect(resend.resendOf).toBe(first.id);
    expect(first.resentAs).toBe(resend.id);
    expect(m.submissions.map(names)).toEqual([[], ["retried-after-error"]]);
    expect(m.verdictCounts.single).toBe(0);
  });

  it("accepts user messages announced as user_message_chunk as well as user_message", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", KEY)
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: {
          sessionUpdate: "user_message_chunk",
          messageId: "m1",
          content: { type: "text", text: "hi" },
        },
      })
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hi", KEY)
      .inserted(2, 1, "m1");
    const s = only(run(t));
    expect(s.inserts).toBe(1);
    expect(words(s)[1]).toBe("answered with the original messageId m1 (no new insert)");
  });
});
