import { describe, expect, it } from "vitest";
import { parseFaultArg } from "./fault-arg.js";

const now = new Date("2026-01-01T00:00:00Z");

describe("parseFaultArg", () => {
  it("parses an action with a match, a count and a delay", () => {
    expect(parseFaultArg("drop-response:method=session/prompt,count=2", 1, now)).toEqual({
      id: "cli-1",
      action: "drop-response",
      match: { method: "session/prompt", on: "response" },
      count: 2,
      armedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(parseFaultArg("delay:method=session/update,delay-ms=250,on=request", 2, now)).toMatchObject({
      id: "cli-2",
      action: "delay",
      delayMs: 250,
      match: { method: "session/update", on: "request" },
    });
    expect(
      parseFaultArg("restart-agent:method=session/prompt,on=response,key=K-1,session=s1", 3, now),
    ).toMatchObject({
      match: { method: "session/prompt", on: "response", idempotencyKey: "K-1", sessionId: "s1" },
    });
  });

  it("keeps '=' inside a value and accepts a bare lifecycle action (immediate)", () => {
    expect(parseFaultArg("drop-request:key=a=b", 1, now)).toMatchObject({ match: { idempotencyKey: "a=b" } });
    expect(parseFaultArg("kill-agent", 1, now)).toMatchObject({ action: "kill-agent", match: {}, count: 1 });
  });

  it.each([
    ["explode", "action must be one of"],
    ["drop-response:methd=x", "expected name=value"],
    ["drop-response:method", "expected name=value"],
    ["delay:method=x", "delay needs delayMs"],
    ["drop-request:count=-1", "non-negative integer"],
    ["drop-response:on=request", "always fires on the response"],
  ])("rejects %s", (arg, message) => {
    const r = parseFaultArg(arg, 1, now);
    expect(typeof r).toBe("string");
    expect(r).toContain(message);
  });
});
