import { describe, expect, it } from "vitest";
import { classifyFrame } from "../protocol/frame.js";
import type { FaultRule } from "./fault-rule.js";
import { matchFrame } from "./match-frame.js";

function rule(over: Partial<FaultRule>): FaultRule {
  return { id: "r1", action: "delay", match: {}, count: 1, delayMs: 10, armedAt: "t", ...over };
}
const prompt = classifyFrame(
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "session/prompt",
    params: { sessionId: "s1", idempotencyKey: "K-1", prompt: [{ type: "text", text: "hi" }] },
  }),
);
const answer = classifyFrame(JSON.stringify({ jsonrpc: "2.0", id: 7, result: { messageId: "m1" } }));
const update = classifyFrame(
  JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: {} } }),
);
const asked = { method: "session/prompt", params: { sessionId: "s1", idempotencyKey: "K-1" } };

describe("matchFrame", () => {
  it("matches a request by method, session and key", () => {
    const r = rule({ match: { method: "session/prompt", sessionId: "s1", idempotencyKey: "K-1" } });
    expect(matchFrame(r, prompt, "client->agent")).toBe(true);
    expect(matchFrame(rule({ match: { sessionId: "s2" } }), prompt, "client->agent")).toBe(false);
    expect(matchFrame(rule({ match: { idempotencyKey: "k-1" } }), prompt, "client->agent")).toBe(false);
    expect(matchFrame(rule({ match: { method: "session/new" } }), prompt, "client->agent")).toBe(false);
  });

  it("matches a response by the request it answers", () => {
    const r = rule({
      action: "drop-response",
      match: { method: "session/prompt", on: "response", idempotencyKey: "K-1" },
    });
    expect(matchFrame(r, answer, "agent->client", asked)).toBe(true);
    expect(matchFrame(r, answer, "agent->client")).toBe(false);
    expect(matchFrame(r, answer, "agent->client", { method: "session/new", params: {} })).toBe(false);
  });

  it("drop-response fires only on the agent's answers, drop-request only on what the client sends", () => {
    const dropResponse = rule({ action: "drop-response", match: { on: "response" } });
    expect(matchFrame(dropResponse, answer, "agent->client")).toBe(true);
    expect(matchFrame(dropResponse, answer, "client->agent")).toBe(false);
    expect(matchFrame(dropResponse, prompt, "client->agent")).toBe(false);
    const dropRequest = rule({ action: "drop-request", match: { on: "request" } });
    expect(matchFrame(dropRequest, prompt, "client->agent")).toBe(true);
    expect(matchFrame(dropRequest, update, "agent->client")).toBe(false);
    expect(matchFrame(dropRequest, answer, "agent->client", asked)).toBe(false);
  });

  it("honours `on` for delay and lifecycle rules", () => {
    const onResponse = rule({ action: "kill-agent", match: { method: "session/prompt", on: "response" } });
    expect(matchFrame(onResponse, prompt, "client->agent")).toBe(false);
    expect(matchFrame(onResponse, answer, "agent->client", asked)).toBe(true);
    const either = rule({ match: { method: "session/prompt" } });
    expect(matchFrame(either, prompt, "client->agent")).toBe(true);
    expect(matchFrame(either, answer, "agent->client", asked)).toBe(true);
  });

  it("never matches malformed frames, used-up rules or immediate rules", () => {
    expect(matchFrame(rule({}), classifyFrame("not json"), "client->agent")).toBe(false);
    expect(matchFrame(rule({ count: 0 }), prompt, "client->agent")).toBe(false);
    expect(matchFrame(rule({ action: "kill-agent", match: {} }), prompt, "client->agent")).toBe(false);
  });
});
