import { describe, expect, it } from "vitest";
import type { DemoStatus, ScenarioProgress } from "../../../shared/demo/demo-wire.js";
import { demoStatusParts, scenarioWords, submissionWords } from "./demo-words.js";

/** The status line as the panel shows it: its parts joined by " · ". */
const demoStatusLine = (...args: Parameters<typeof demoStatusParts>) =>
  demoStatusParts(...args)
    .map((p) => p.text)
    .join(" · ");

const progress = (over: Partial<ScenarioProgress>): ScenarioProgress => ({
  id: "naive-duplicate",
  title: "The same story against a naive agent",
  step: 3,
  steps: 4,
  caption: "",
  rfd: "",
  phase: "finished",
  stepDelayMs: 0,
  ...over,
});

const status = (over: Partial<DemoStatus>): DemoStatus => ({
  v: 1,
  state: "ready",
  mode: "naive",
  tapPid: 10,
  agentPid: 4242,
  traceId: "t-naive",
  client: { state: "connected", conn: 1, sessionId: "s" },
  submissions: [],
  deploys: 2,
  log: [],
  scenario: progress({}),
  ...over,
});

describe("the demo's status line", () => {
  it("names the scenario and its step", () => {
    expect(demoStatusLine(status({}), "t-naive")).toBe(
      "Demo ready · “The same story against a naive agent” finished (4 steps) · agent pid 4242 · mode naive · client connected on connection #1 · 2 deploys",
    );
    expect(scenarioWords(progress({ phase: "acting", step: 1 }))).toBe(
      "“The same story against a naive agent” step 2 of 4",
    );
    expect(scenarioWords(progress({ phase: "stopped", step: 1 }))).toBe(
      "“The same story against a naive agent” stopped at step 2 of 4",
    );
    expect(scenarioWords(null)).toBe("no scenario played");
  });

  it("while a fresh tap starts: the scenario about to play, no client and no deploy count", () => {
    const line = demoStatusLine(
      status({
        state: "starting",
        agentPid: null,
        deploys: 0,
        client: { state: "idle", conn: 0, sessionId: null },
        scenario: progress({
          id: "lost-response",
          title: "Lost response, then a keyed retry",
          step: 0,
          phase: "waiting",
          waitingFor: "a fresh tap and agent",
        }),
        mode: "correct",
      }),
      "t-naive",
    );
    expect(line).toBe(
      "Demo starting · “Lost response, then a keyed retry” step 1 of 4, waiting for a fresh tap and agent · mode correct",
    );
    expect(line).not.toMatch(/deploy|client/);
    expect(demoStatusLine(status({ state: "starting", scenario: null }), undefined)).toBe(
      "Demo starting · no scenario played · a fresh tap and agent are starting in mode naive",
    );
  });

  it("says so when the views show another trace than the demo's", () => {
    expect(demoStatusLine(status({}), "t-imported")).toMatch(
      / · the views show another trace than the demo's$/,
    );
    expect(demoStatusLine(status({}), undefined)).not.toMatch(/another trace/);
  });
});

describe("the status line's parts and a submission's words", () => {
  it("marks the scenario's part (presenter mode leaves it to the caption)", () => {
    const parts = demoStatusParts(status({}), "t-naive");
    expect(parts.map((p) => p.kind)).toEqual(["state", "scenario", "fact", "fact", "fact", "fact"]);
    expect(parts.find((p) => p.kind === "scenario")?.text).toBe(
      "“The same story against a naive agent” finished (4 steps)",
    );
  });

  it("gives a submission's line whole, its key and messageIds uncut", () => {
    expect(
      submissionWords({
        index: 0,
        label: "A",
        text: "Deploy the site",
        key: "0b7c9d4e-1111-4222-8333-944445555666",
        status: "answered",
        attempts: 2,
        messageIds: ["5c6e93af-aaaa-4bbb-8ccc-dddddddddddd", "b1404d87-eeee-4fff-8000-111111111111"],
        inspected: { inserts: 2, verdicts: ["duplicate-insert"] },
      }),
    ).toBe(
      "A: Deploy the site key 0b7c9d4e-1111-4222-8333-944445555666 · answered, 2 attempts · messageId 5c6e93af-aaaa-4bbb-8ccc-dddddddddddd, b1404d87-eeee-4fff-8000-111111111111 · inspector: 2 inserts, duplicate-insert",
    );
    expect(
      submissionWords({
        index: 3,
        text: "hi",
        key: null,
        status: "failed",
        attempts: 1,
        messageIds: [],
        error: "-32603 boom",
      }),
    ).toBe("#3: hi no key · failed, 1 attempt · -32603 boom");
  });
});
