import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../trace/record.js";
import { placeFaultPlan } from "./fault-plan.js";
import { connId, planReplay } from "./replay-plan.js";

let seq = 0;
const c2a = (msg: object): TraceRecord => ({
  type: "frame",
  seq: ++seq,
  ts: seq,
  conn: 1,
  dir: "client->agent",
  raw: JSON.stringify({ jsonrpc: "2.0", ...msg }),
});
const prompt = (id: number, key?: string) =>
  c2a({
    id,
    method: "session/prompt",
    params: { sessionId: "S", prompt: [], ...(key && { idempotencyKey: key }) },
  });
const plan = planReplay([
  c2a({ id: 1, method: "initialize", params: {} }),
  prompt(2, "K1"),
  prompt(3, "K2"),
  prompt(4),
]);
const place = (faults: unknown[]) => placeFaultPlan(JSON.stringify({ version: 1, faults }), plan);

describe("placeFaultPlan", () => {
  it("places nth on the n-th request's key, and does not wait for an answer a drop takes away", () => {
    const r = place([{ action: "drop-response", match: { method: "session/prompt" }, nth: 2 }]);
    expect(r).toEqual({
      rules: ["drop-response:method=session/prompt,key=K2,on=response,count=1"],
      unawaited: new Set([connId(1, 3)]),
      remarks: [expect.stringContaining("2nd session/prompt is placed by its key K2")],
    });
  });
  it("writes delay, count and a key rule in proxy --fault syntax", () => {
    const r = place([
      { action: "delay", delayMs: 50, count: 2, match: { method: "session/prompt", on: "response" } },
      { action: "lose-and-retry", match: { idempotencyKey: "K1" } },
    ]);
    expect(typeof r !== "string" && r.rules).toEqual([
      "delay:method=session/prompt,on=response,count=2,delay-ms=50",
      "lose-and-retry:method=session/prompt,key=K1,on=response,count=1",
    ]);
  });
  it("refuses what the rule validator refuses, and what a plan cannot place", () => {
    expect(place([{ action: "melt" }])).toMatch(/^faults\[0\]: action must be one of/);
    expect(place([{ action: "drop-response", bogus: 1 }])).toMatch(/unknown field "bogus"/);
    expect(place([{ action: "delay", match: { method: "x" } }])).toMatch(/needs delayMs/);
    expect(place([{ action: "drop-response", target: { all: true } }])).toMatch(/target is for the hub/);
    expect(place([{ action: "drop-response", match: { sessionId: "S" } }])).toMatch(
      /sessionId cannot be placed/,
    );
    expect(place([{ action: "drop-response", match: { method: "session/prompt" }, nth: 3 }])).toMatch(
      /3rd session\/prompt of the source has no idempotencyKey/,
    );
    expect(place([{ action: "drop-response", match: { method: "session/prompt" }, nth: 4 }])).toMatch(
      /fewer than 4/,
    );
    expect(place([{ action: "drop-response", match: { method: "session/prompt" }, nth: 0 }])).toMatch(
      /nth must be/,
    );
    expect(placeFaultPlan("[]", plan)).toMatch(/a fault plan is a JSON object/);
    expect(placeFaultPlan('{"faults":[],"x":1}', plan)).toMatch(/unknown field "x"/);
    expect(placeFaultPlan("{", plan)).toMatch(/^not JSON/);
  });
});
