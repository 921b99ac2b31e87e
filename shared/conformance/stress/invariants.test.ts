/** The stress invariants over the analyzer's model of handcrafted traces: each one broken, and clean (unit). */
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../analyzer/analyzer.js";
import { TraceScript } from "../../analyzer/testing/trace-script.js";
import type { TimelineModel } from "../../analyzer/timeline-model.js";
import { checkInvariants } from "./invariants.js";

const S = "sess-1";
const K1 = "stress-1a2b3c4d-p1";
const K2 = "stress-1a2b3c4d-p2";
const TAP_ID = "acp-retry-inspector:retry:1";

function model(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function v2(): TraceScript {
  return new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2, clientCapabilities: {} })
    .result(1, "agent->client", 0, { protocolVersion: 2 });
}

const names = (m: TimelineModel, keys: string[]) =>
  checkInvariants(m, keys).map((v) => `${v.invariant} ${v.key}`);

describe("stress invariants", () => {
  it("hold for a keyed retry after a dropped answer that gets the original messageId", () => {
    const t = v2()
      .prompt(1, 1, S, "a", K1)
      .userMessage(1, S, "m1")
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "a", K1)
      .inserted(1, 2, "m1")
      .prompt(1, 3, S, "b", K2)
      .inserted(1, 3, "m2");
    expect(checkInvariants(model(t), [K1, K2])).toEqual([]);
  });

  it("one-insert and same-message-id: a retry that inserts again", () => {
    const t = v2()
      .prompt(1, 1, S, "a", K1)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, S, "a", K1)
      .inserted(1, 2, "m9");
    const v = checkInvariants(model(t), [K1]);
    expect(v.map((x) => x.invariant)).toEqual(["one-insert", "same-message-id"]);
    expect(v[0]?.message).toBe(`key ${K1}: 2 user messages inserted (messageIds m1, m9)`);
    expect(v[1]?.message).toBe(`key ${K1}: its successes carry different messageIds: m1, m9`);
    expect(v[1]?.seqs).toEqual([5, 7]);
  });

  it("answered: every answer dropped, or the key never reached the tap", () => {
    const t = v2().prompt(1, 1, S, "a", K1).inserted(1, 1, "m1", { dropped: true }).close(1);
    expect(names(model(t), [K1, K2])).toEqual([`answered ${K1}`, `answered ${K2}`]);
    const [dropped, missing] = checkInvariants(model(t), [K1, K2]);
    expect(dropped?.message).toMatch(/the client never saw an answer after 1 attempt\(s\); the last: /);
    expect(missing?.message).toBe(`key ${K2}: no prompt with this key is in the trace (lost before the tap)`);
  });

  it("answered: an inspector retry's answer forwarded under the client's id counts, and a -32800 does", () => {
    const t = v2().prompt(1, 3, S, "deploy", K1); // seq 4
    t.inserted(1, 3, "m1", { dropped: true });
    t.raw(
      1,
      "client->agent",
      JSON.stringify({
        jsonrpc: "2.0",
        id: TAP_ID,
        method: "session/prompt",
        params: { sessionId: S, prompt: [{ type: "text", text: "deploy" }], idempotencyKey: K1 },
      }),
      { origin: "inspector", replaces: 3, copyOf: 4 },
    );
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "m1" } }), {
      origin: "inspector",
    });
    const answerSeq = t.records.at(-1)?.seq as number;
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: 3, result: { messageId: "m1" } }), {
      origin: "inspector",
      replaces: TAP_ID,
      copyOf: answerSeq,
    });
    t.prompt(1, 4, S, "b", K2).cancelRequest(1, 4).error(1, 4, -32800, "cancelled");
    expect(checkInvariants(model(t), [K1, K2])).toEqual([]);
  });

  it("no-key-leak: the agent echoes a key", () => {
    const t = v2()
      .prompt(1, 1, S, "a", K1)
      .notify(1, "agent->client", "session/update", {
        sessionId: S,
        update: {
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: `your key is ${K1}` },
        },
      })
      .inserted(1, 1, "m1");
    expect(names(model(t), [K1])).toEqual([`no-key-leak ${K1}`]);
  });
});
