import { describe, expect, it } from "vitest";
import { MAX_DEMO_PROMPT_CHARS, parseDemoCommand } from "./demo-wire.js";

describe("parseDemoCommand", () => {
  it("accepts the five operations", () => {
    expect(parseDemoCommand({ op: "send", text: "hi", withKey: false })).toEqual({
      op: "send",
      text: "hi",
      withKey: false,
    });
    expect(parseDemoCommand({ op: "play", scenario: "lost-response", stepDelayMs: 0 })).toEqual({
      op: "play",
      scenario: "lost-response",
      stepDelayMs: 0,
    });
    expect(parseDemoCommand({ op: "play", scenario: "held-cancel" })).toMatchObject({ stepDelayMs: null });
    expect(parseDemoCommand({ op: "next" })).toEqual({ op: "next" });
    expect(parseDemoCommand({ op: "stop" })).toEqual({ op: "stop" });
    expect(parseDemoCommand({ op: "reset", mode: "naive" })).toEqual({ op: "reset", mode: "naive" });
  });

  it.each([
    [null],
    [{ op: "spawn", command: ["sh"] }],
    [{ op: "send", text: "", withKey: true }],
    [{ op: "send", text: "x".repeat(MAX_DEMO_PROMPT_CHARS + 1), withKey: true }],
    [{ op: "send", text: "x", withKey: "yes" }],
    [{ op: "play", scenario: "../etc" }],
    [{ op: "play", scenario: "lost-response", stepDelayMs: -1 }],
    [{ op: "play", scenario: "lost-response", stepDelayMs: 1.5 }],
    [{ op: "reset", mode: "evil" }],
  ])("refuses %j", (v) => {
    expect(parseDemoCommand(v)).toHaveProperty("error");
  });
});
