/** The client judge on handcrafted traces: each rule broken, and kept. */
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import { TraceScript } from "../../analyzer/trace-script.js";
import type { ClientCaseName } from "../conformance-result.js";
import { judgeClientCase } from "./client-judge.js";
import { readClientWire } from "./client-wire.js";

const S = "sess-1";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

function judge(name: ClientCaseName, t: TraceScript) {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  const m = a.model();
  return judgeClientCase(name, {
    wire: readClientWire(t.records),
    verdicts: [...m.submissions.flatMap((s) => s.verdicts), ...m.requests.flatMap((r) => r.verdicts)],
  });
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
