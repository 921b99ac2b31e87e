/** The client judge on handcrafted traces: each rule broken, and kept. */
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import { TraceScript } from "../../analyzer/testing/trace-script.js";
import type { ClientCaseName } from "../conformance-result.js";
import { clientRunEvidence, judgeClientCase } from "./client-judge.js";

const S = "sess-1";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

function judge(name: ClientCaseName, t: TraceScript) {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return judgeClientCase(name, clientRunEvidence(t.records, a.model()));
}

function start(t: TraceScript, conn = 1): TraceScript {
  return t
    .request(conn, C2A, 0, "initialize", { protocolVersion: 2 })
    .result(conn, A2C, 0, { protocolVersion: 2 });
}

describe("the client judge", () => {
  it("retry-same-key: a same-key resend passes, a new-key one fails naming both requests", () => {
    const same = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", "k1")
      .inserted(1, 2, "m1");
    expect(judge("retry-same-key", same).status).toBe("pass");
    const fresh = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", "k2")
      .inserted(1, 2, "m2");
    const j = judge("retry-same-key", fresh);
    expect(j.status).toBe("fail");
    expect(j.evidence.map((e) => e.id)).toEqual([1, 2]);
    // No resend at all: not this case's failure, the advisory resend case's.
    const none = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .inserted(1, 1, "m1", { dropped: true });
    expect(judge("retry-same-key", none).status).toBe("skip");
    expect(judge("resend-lost-answer", none).status).toBe("fail");
  });

  it("resume-after-disconnect: the resend must follow an answered session/resume on the new connection", () => {
    const ok = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .close(1)
      .open(2)
      .request(2, C2A, 1, "session/resume", { sessionId: S })
      .result(2, A2C, 1, {})
      .prompt(2, 2, S, "hi", "k1")
      .inserted(2, 2, "m1");
    expect(judge("resume-after-disconnect", ok).status).toBe("pass");
    const noResume = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .close(1)
      .open(2)
      .prompt(2, 2, S, "hi", "k1")
      .inserted(2, 2, "m1");
    expect(judge("resume-after-disconnect", noResume).status).toBe("fail");
    const early = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .close(1)
      .open(2)
      .request(2, C2A, 1, "session/resume", { sessionId: S })
      .prompt(2, 2, S, "hi", "k1")
      .result(2, A2C, 1, {})
      .inserted(2, 2, "m1");
    expect(judge("resume-after-disconnect", early).message).toContain("before session/resume");
  });

  it("key rules: length, a new key for the same text, one prompt per key", () => {
    const good = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", "k2")
      .inserted(1, 2, "m2");
    expect(judge("key-length", good).status).toBe("pass");
    expect(judge("new-key-same-text", good).status).toBe("pass");
    expect(judge("key-same-prompt", good).status).toBe("pass");
    const reused = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", "k1")
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", "k1")
      .inserted(1, 2, "m1")
      .prompt(1, 3, S, "bye", "k1")
      .inserted(1, 3, "m1");
    expect(judge("new-key-same-text", reused).status).toBe("fail");
    expect(judge("key-same-prompt", reused).status).toBe("fail");
    const long = start(new TraceScript().open(1)).prompt(1, 1, S, "hi", "x".repeat(256)).error(1, 1, -32602);
    expect(judge("key-length", long).status).toBe("fail");
    const one = start(new TraceScript().open(1)).prompt(1, 1, S, "hi", "k1").inserted(1, 1, "m1");
    expect(judge("new-key-same-text", one).message).toMatch(/^not applicable/);
  });

  it("unkeyed and session/new resends", () => {
    const unkeyed = start(new TraceScript().open(1))
      .prompt(1, 1, S, "hi")
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi")
      .inserted(1, 2, "m2");
    expect(judge("unkeyed-not-resent", unkeyed).status).toBe("fail");
    expect(judge("retry-same-key", unkeyed).status).toBe("skip");
    const twice = start(new TraceScript().open(1))
      .request(1, C2A, 1, "session/new", { cwd: "/w" })
      .result(1, A2C, 1, { sessionId: S }, { dropped: true })
      .close(1)
      .open(2)
      .request(2, C2A, 1, "session/new", { cwd: "/w" })
      .result(2, A2C, 1, { sessionId: "sess-2" });
    expect(judge("session-new-not-resent", twice).status).toBe("fail");
    const once = start(new TraceScript().open(1))
      .request(1, C2A, 1, "session/new", { cwd: "/w" })
      .result(1, A2C, 1, { sessionId: S }, { dropped: true });
    expect(judge("session-new-not-resent", once).status).toBe("pass");
  });
});

describe("a resend only follows a loss", () => {
  it("a new submission of the same text sent before the answer was dropped is not a resend under a new key", () => {
    // #1 (k1, left pending by an earlier run) and #2 (k2, the new submission of the same text) go out
    // together; #1's answer is dropped only after #2 was sent; #1 is then resent with its own key.
    const t = start(new TraceScript().open(1))
      .prompt(1, 1, S, "deploy it", "k1")
      .prompt(1, 2, S, "deploy it", "k2")
      .inserted(1, 1, "m1", { dropped: true })
      .inserted(1, 2, "m2")
      .prompt(1, 3, S, "deploy it", "k1")
      .inserted(1, 3, "m1");
    for (const name of ["retry-same-key", "resend-lost-answer"] as const) {
      const j = judge(name, t);
      expect(j.status, `${name}: ${j.message}`).toBe("pass");
    }
    // The same submission sent after the drop under a new key still fails.
    const after = start(new TraceScript().open(1))
      .prompt(1, 1, S, "deploy it", "k1")
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "deploy it", "k2")
      .inserted(1, 2, "m2");
    expect(judge("retry-same-key", after).status).toBe("fail");
  });

  it("after a lost connection, only a prompt on a later connection is a resend", () => {
    const t = start(new TraceScript().open(1))
      .prompt(1, 1, S, "deploy it", "k1")
      .prompt(1, 2, S, "deploy it", "k2")
      .close(1)
      .open(2)
      .request(2, C2A, 1, "session/resume", { sessionId: S })
      .result(2, A2C, 1, {})
      .prompt(2, 2, S, "deploy it", "k1")
      .inserted(2, 2, "m1")
      .prompt(2, 3, S, "deploy it", "k2")
      .inserted(2, 3, "m2");
    const j = judge("reconnect-same-key", t);
    expect(j.status, j.message).toBe("pass");
  });
});

const TAP_ID = "acp-retry-inspector:retry:1";

/**
 * `lose-and-retry` as the tap writes it: the client's prompt `id`, its answer `first` dropped, the
 * inspector's copy (its own id) answered `retried`, that answer forwarded under `id`.
 */
function loseAndRetry(t: TraceScript, id: number, key: string, first: string, retried: string): TraceScript {
  t.prompt(1, id, S, "deploy it", key);
  const copyOf = t.records.at(-1)?.seq as number;
  t.inserted(1, id, first, { dropped: true });
  const params = { sessionId: S, prompt: [{ type: "text", text: "deploy it" }], idempotencyKey: key };
  t.raw(1, C2A, JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }), {
    origin: "inspector",
    replaces: id,
    copyOf,
  });
  t.raw(1, A2C, JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: retried } }), {
    origin: "inspector",
  });
  const answerSeq = t.records.at(-1)?.seq as number;
  return t.raw(1, A2C, JSON.stringify({ jsonrpc: "2.0", id, result: { messageId: retried } }), {
    origin: "inspector",
    replaces: TAP_ID,
    copyOf: answerSeq,
  });
}

describe("the judge reads the outcome model", () => {
  it("an answer the inspector's retry forwarded under the client's id counts as seen (lose-and-retry)", () => {
    const t = loseAndRetry(start(new TraceScript().open(1)), 1, "k1", "m1", "m1");
    // Nothing was lost to the client: there is nothing it had to resend.
    for (const name of ["resend-lost-answer", "retry-same-key", "unkeyed-not-resent"] as const) {
      const j = judge(name, t);
      expect(j.status, `${name}: ${j.message}`).toBe("skip");
      expect(j.message).toBe("not applicable: no prompt lost its answer in this run");
    }
    // The same text submitted again after that answer, under a new key, is a new submission.
    t.prompt(1, 2, S, "deploy it", "k2").inserted(1, 2, "m2");
    for (const name of ["retry-same-key", "new-key-same-text"] as const) {
      const j = judge(name, t);
      expect(j.status, `${name}: ${j.message}`).not.toBe("fail");
    }
    expect(judge("new-key-same-text", t).status).toBe("pass");
  });

  it("a loss the model records (a dropped answer, then the connection closed) makes a later new-key copy a resend", () => {
    // #1's own answer is dropped and the connection then closes before the retry's answer comes:
    // the model records a loss, and a copy under a new key on the next connection is a resend.
    const lostT = start(new TraceScript().open(1)).prompt(1, 1, S, "deploy it", "k1");
    lostT.inserted(1, 1, "m1", { dropped: true }).close(1).open(2);
    lostT.prompt(2, 1, S, "deploy it", "k2").inserted(2, 1, "m2");
    const j = judge("retry-same-key", lostT);
    expect(j.status, j.message).toBe("fail");
    expect(j.message).toMatch(/#2 id 1 resent the prompt of #1 id 1, whose answer was lost, under "k2"/);
  });

  it("a request with no answer and no recorded loss is pending, not lost", () => {
    // The trace ends with #1 unanswered and its connection still open: nothing says it was lost.
    const t = start(new TraceScript().open(1)).prompt(1, 1, S, "deploy it", "k1");
    expect(judge("resend-lost-answer", t).message).toBe(
      "not applicable: no prompt lost its answer in this run",
    );
    const s = start(new TraceScript().open(1)).request(1, C2A, 1, "session/new", { cwd: "/w" });
    expect(judge("session-new-not-resent", s).status).toBe("skip");
  });

  it("the evidence of a failure names the forwarded answer's frames", () => {
    const t = loseAndRetry(start(new TraceScript().open(1)), 1, "k1", "m1", "m1");
    t.prompt(1, 2, S, "bye", "k1").inserted(1, 2, "m1");
    const j = judge("key-same-prompt", t);
    expect(j.status, j.message).toBe("fail");
    // #1: its request, its dropped answer, the retry, the retry's answer and its forwarded copy.
    expect(j.evidence.map((e) => e.frameSeqs.length)).toEqual([5, 2]);
  });

  it("the analyzer calls no prompt a resend after a loss when the inspector forwarded the answer", () => {
    const t = loseAndRetry(start(new TraceScript().open(1)), 1, "k1", "m1", "m1");
    t.prompt(1, 2, S, "deploy it", "k2").inserted(1, 2, "m2");
    const a = new Analyzer();
    for (const r of t.records) a.ingest(r);
    const names = a.model().submissions.flatMap((s) => s.verdicts.map((v) => v.name));
    expect(names).not.toContain("new-key-on-resend");
    expect(a.model().submissions.map((s) => s.resendOf)).toEqual([null, null]);
  });
});
