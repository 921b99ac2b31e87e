import { describe, expect, it } from "vitest";
import { checkFaultRule, checkFaultSpec } from "./rule-validation.js";

describe("checkFaultSpec", () => {
  it("applies defaults and fixes the trigger of the drop actions", () => {
    const r = checkFaultSpec({ action: "drop-response", match: { method: "session/prompt" } });
    expect(r).toEqual({
      ok: true,
      spec: { action: "drop-response", match: { method: "session/prompt", on: "response" }, count: 1 },
    });
    const d = checkFaultSpec({ action: "drop-request" });
    expect(d.ok && d.spec.match).toEqual({ on: "request" });
  });

  it("gives the retry actions session/prompt unless a method is named, and fixes their trigger", () => {
    expect(checkFaultSpec({ action: "retry" })).toEqual({
      ok: true,
      spec: { action: "retry", match: { method: "session/prompt" }, count: 1 },
    });
    const lose = checkFaultSpec({ action: "lose-and-retry", match: { method: "session/new" } });
    expect(lose.ok && lose.spec.match).toEqual({ method: "session/new", on: "response" });
    const restart = checkFaultSpec({ action: "restart-and-retry", match: { idempotencyKey: "k" } });
    expect(restart.ok && restart.spec.match).toEqual({
      method: "session/prompt",
      idempotencyKey: "k",
      on: "response",
    });
    expect(checkFaultSpec({ action: "retry", match: { on: "response" } }).ok).toBe(false);
    expect(checkFaultSpec({ action: "lose-and-retry", match: { on: "request" } }).ok).toBe(false);
  });

  it("requires delayMs for delay and forbids it elsewhere", () => {
    expect(checkFaultSpec({ action: "delay" }).ok).toBe(false);
    expect(checkFaultSpec({ action: "delay", delayMs: 250, count: 3 })).toEqual({
      ok: true,
      spec: { action: "delay", match: {}, count: 3, delayMs: 250 },
    });
    expect(checkFaultSpec({ action: "kill-agent", delayMs: 5 }).ok).toBe(false);
    expect(checkFaultSpec({ action: "delay", delayMs: -1 }).ok).toBe(false);
    expect(checkFaultSpec({ action: "delay", delayMs: 1.5 }).ok).toBe(false);
  });

  it.each([
    [null, "JSON object"],
    [{ action: "explode" }, "action must be one of"],
    [{ action: "kill-agent", extra: 1 }, 'unknown field "extra"'],
    [{ action: "kill-agent", match: { methd: "x" } }, 'unknown match field "methd"'],
    [{ action: "kill-agent", match: { method: "" } }, "match.method"],
    [{ action: "kill-agent", match: { idempotencyKey: "" } }, "idempotencyKey"],
    [{ action: "kill-agent", match: { idempotencyKey: "k".repeat(256) } }, "at most 255"],
    [{ action: "kill-agent", match: { on: "both" } }, "match.on"],
    [{ action: "drop-response", match: { on: "request" } }, "always fires on the response"],
    [{ action: "kill-agent", count: 0 }, "count must be"],
    [{ action: "kill-agent", count: "2" }, "count must be"],
  ])("rejects %j", (input, message) => {
    const r = checkFaultSpec(input);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain(message);
  });

  it("checks whole rules as the hub sends them", () => {
    expect(
      checkFaultRule({
        id: "r1",
        armedAt: "2026-01-01T00:00:00Z",
        action: "kill-agent",
        match: {},
        count: 1,
      }),
    ).toBe(true);
    expect(checkFaultRule({ action: "kill-agent", match: {}, count: 1 })).toBe(false);
  });
});
