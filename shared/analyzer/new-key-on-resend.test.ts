/** The `new-key-on-resend` verdict (issue 14) on handcrafted traces: violating and clean. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";
import { VERDICTS, type VerdictName, verdictDefinition } from "./verdicts.js";

const S = "sess-1";
const K1 = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const K2 = "0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function names(s: Submission | undefined): VerdictName[] {
  return (s?.verdicts ?? []).map((v) => v.name);
}

function v2(t: TraceScript, conn = 1): TraceScript {
  return t
    .request(conn, C2A, 0, "initialize", { protocolVersion: 2, clientCapabilities: {} })
    .result(conn, A2C, 0, { protocolVersion: 2 });
}

describe("verdict new-key-on-resend", () => {
  it("is explained with the RFD's sentence, quoted exactly", () => {
    const d = verdictDefinition("new-key-on-resend");
    expect(d.severity).toBe("client-issue");
    expect(d.rule).toBe(
      "It sends the same key on every attempt, including after reconnecting or restarting.",
    );
  });

  it("fires for the same prompt under a new key after the answer was dropped", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", K2)
      .inserted(1, 2, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    const resend = m.submissions[1] as Submission;
    expect(resend.resendOf).toBe(m.submissions[0]?.id);
    expect(resend.verdicts[0]?.detail).toBe(
      `resends conn #1 id 1 (seq 4) under a new key (it had key ${K1}) after its answer was lost, and the Agent inserted it again: 2 user messages (m1, m2)`,
    );
    expect(resend.verdicts[0]?.seqs).toEqual([4, 6]);
    // One resend, one Client issue.
    expect(m.verdictCounts["new-key-on-resend"]).toBe(1);
    expect(m.verdictCounts.unresolved).toBe(0);
  });

  it("fires after the connection was lost before the answer, on a new connection", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .close(1, "EOF")
      .open(2)
      .request(2, C2A, 1, "session/resume", { sessionId: S })
      .result(2, A2C, 1, {})
      .prompt(2, 2, S, "hi", K2)
      .inserted(2, 2, "m2");
    expect(run(t).submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
  });

  it("fires after the Agent died before the answer, and for a keyed resend of an unkeyed prompt", () => {
    const died = v2(new TraceScript().spawn(7).open(1))
      .prompt(1, 1, S, "hi", K1)
      .exit(7, null, "SIGKILL")
      .spawn(8)
      .prompt(1, 2, S, "hi", K2)
      .inserted(1, 2, "m2");
    expect(run(died).submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    const unkeyedFirst = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi")
      .close(1)
      .open(2)
      .prompt(2, 1, S, "hi", K2)
      .inserted(2, 1, "m2");
    const m = run(unkeyedFirst);
    expect(m.submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    expect(m.submissions[1]?.verdicts[0]?.detail).toContain("(it had no key)");
  });

  it("fires after a dropped request (the prompt never reached the Agent; the Client cannot know)", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1, { dropped: true })
      .close(1)
      .open(2)
      .request(2, C2A, 1, "session/resume", { sessionId: S })
      .result(2, A2C, 1, {})
      .prompt(2, 2, S, "hi", K2)
      .inserted(2, 2, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    expect(m.verdictCounts["new-key-on-resend"]).toBe(1);
  });

  it("does not fire for the same text sent again after the lost one's same-key retry was answered", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", K1)
      .inserted(1, 2, "m1")
      .prompt(1, 3, S, "hi", K2)
      .inserted(1, 3, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([["deduplicated"], ["single"]]);
    expect(m.verdictCounts["new-key-on-resend"]).toBe(0);
  });

  it("stays on the resend while it is pending, and is followed by unresolved when the resend is lost too", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", K2);
    expect(run(t).submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    t.close(1);
    expect(run(t).submissions.map(names)).toEqual([[], ["unresolved", "new-key-on-resend"]]);
  });

  it("does not fire for a retry with the same key (deduplicated)", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "hi", K1)
      .inserted(1, 2, "m1");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([["deduplicated"]]);
  });

  it("does not fire when the user sends the same text again after a seen answer", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .inserted(1, 1, "m1")
      .prompt(1, 2, S, "hi", K2)
      .inserted(1, 2, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([["single"], ["single"]]);
    expect(m.submissions[1]?.resendOf).toBeNull();
  });

  it("does not fire for a new key after an error answer (errors leave the key unused)", () => {
    const t = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .error(1, 1, -32603, "boom")
      .prompt(1, 2, S, "hi", K2)
      .inserted(1, 2, "m2");
    const m = run(t);
    expect(m.submissions.map(names)).toEqual([[], ["retried-after-error"]]);
    expect(m.verdictCounts["new-key-on-resend"]).toBe(0);
  });

  it("does not fire for another prompt, another session, or while the first is still pending", () => {
    const other = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .close(1)
      .open(2)
      .prompt(2, 1, S, "something else", K2)
      .inserted(2, 1, "m2");
    expect(run(other).submissions.map(names)).toEqual([["unresolved"], ["single"]]);
    const otherSession = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .close(1)
      .open(2)
      .prompt(2, 1, "sess-2", "hi", K2)
      .inserted(2, 1, "m2");
    expect(run(otherSession).submissions.map(names)).toEqual([["unresolved"], ["single"]]);
    const stillPending = v2(new TraceScript().open(1))
      .prompt(1, 1, S, "hi", K1)
      .prompt(1, 2, S, "hi", K2)
      .inserted(1, 2, "m2");
    expect(run(stillPending).submissions.map(names)).toEqual([[], ["single"]]);
  });
});

describe("the verdict catalogue", () => {
  it("cites every rule word for word from the RFD", () => {
    const squash = (x: string) => x.replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, "");
    const rfd = squash(readFileSync("/work/shared/spec/rfd-v2-idempotency-keys.txt", "utf8"));
    for (const v of VERDICTS) expect(rfd, v.name).toContain(squash(v.rule));
  });
});
