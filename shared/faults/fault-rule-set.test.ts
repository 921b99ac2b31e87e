import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFrame } from "../protocol/frame.js";
import type { FaultRule } from "./fault-rule.js";
import { FaultRuleSet } from "./fault-rule-set.js";
import { RequestLedger } from "./request-ledger.js";

function rule(id: string, over: Partial<FaultRule>): FaultRule {
  return { id, action: "drop-request", match: { on: "request" }, count: 1, armedAt: "t", ...over };
}
const req = (id: number, method = "session/prompt", params: unknown = { sessionId: "s" }) =>
  classifyFrame(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
const res = (id: number) => classifyFrame(JSON.stringify({ jsonrpc: "2.0", id, result: { messageId: "m" } }));

describe("FaultRuleSet", () => {
  it("fires on the next N matching frames, then disarms", () => {
    const set = new FaultRuleSet();
    set.replace([rule("r1", { count: 2 })]);
    expect(set.decide(req(1), "client->agent").action).toBe("drop");
    expect(set.list()[0]?.count).toBe(1);
    expect(set.decide(req(2), "client->agent").action).toBe("drop");
    expect(set.decide(req(3), "client->agent").action).toBe("forward");
    expect(set.list()).toEqual([]);
  });

  it("applies the first armed matching rule", () => {
    const set = new FaultRuleSet();
    set.replace([
      rule("r1", { action: "delay", delayMs: 40, match: {} }),
      rule("r2", { action: "kill-agent", match: { method: "session/prompt" } }),
    ]);
    expect(set.decide(req(1), "client->agent")).toMatchObject({ action: "delay", delayMs: 40 });
    expect(set.decide(req(2), "client->agent")).toMatchObject({ action: "kill-agent" });
  });

  it("never gives back uses spent locally when the hub's list lags", () => {
    const set = new FaultRuleSet();
    set.replace([rule("r1", { count: 2 })]);
    set.decide(req(1), "client->agent");
    set.replace([rule("r1", { count: 2 })]); // the hub has not seen our fault record yet
    expect(set.list()[0]?.count).toBe(1);
    set.replace([rule("r1", { count: 1 })]);
    expect(set.list()[0]?.count).toBe(1);
    set.replace([]); // disarmed on the hub
    expect(set.decide(req(2), "client->agent").action).toBe("forward");
  });

  it("returns immediate rules once, to apply now", () => {
    const set = new FaultRuleSet();
    const now = rule("r9", { action: "restart-agent", match: {} });
    expect(set.replace([now])).toEqual([now]);
    expect(set.replace([now])).toEqual([]);
    expect(set.decide(req(1), "client->agent").action).toBe("forward");
  });

  it("drops a response matched through the request ledger", () => {
    const set = new FaultRuleSet();
    const ledger = new RequestLedger();
    set.replace([
      rule("r1", { action: "drop-response", match: { method: "session/prompt", on: "response" } }),
    ]);
    const asked = ledger.observe(req(5), "client->agent");
    expect(set.decide(req(5), "client->agent", asked).action).toBe("forward");
    const agentReq = req(5, "fs/read_text_file"); // same id, other direction
    ledger.observe(agentReq, "agent->client");
    const answered = ledger.observe(res(5), "agent->client");
    expect(answered?.method).toBe("session/prompt");
    expect(set.decide(res(5), "agent->client", answered).action).toBe("drop");
    expect(ledger.observe(res(5), "client->agent")?.method).toBe("fs/read_text_file");
    expect(ledger.size).toBe(0);
  });

  it("fires exactly count times over any frame sequence (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.boolean(), { maxLength: 60 }),
        (count, kinds) => {
          const set = new FaultRuleSet();
          set.replace([rule("r1", { count, match: { method: "session/prompt", on: "request" } })]);
          let fired = 0;
          kinds.forEach((isPrompt, i) => {
            const f = req(i, isPrompt ? "session/prompt" : "session/new");
            if (set.decide(f, "client->agent").action === "drop") fired++;
          });
          expect(fired).toBe(Math.min(count, kinds.filter(Boolean).length));
        },
      ),
    );
  });
});
