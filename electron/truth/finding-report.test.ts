/** A finding's report names the other schedules its trace holds, so one that needs them is not taken for a lone run's. */

import { describe, expect, test } from "vitest";
import { describeFinding } from "./finding-report.js";
import type { TruthSchedule } from "./truth-schedule.js";

const schedule: TruthSchedule = {
  prompts: 1,
  faults: [
    { action: "drop-response", prompt: 1, on: "response" },
    { action: "lose-and-retry", prompt: 1, on: "response" },
  ],
  keyed: true,
};
const mate: TruthSchedule = {
  prompts: 2,
  faults: [{ action: "lose-and-retry", prompt: 2, on: "response" }],
  keyed: true,
};
const statement = {
  key: "k",
  claim: "the client saw",
  said: "clientMessageId null",
  truth: "the client has m",
};

describe("describeFinding", () => {
  test("lists the schedules run through the same tap into the same trace", () => {
    const text = describeFinding({
      schedule,
      falseStatements: [statement],
      traceFile: "t.jsonl",
      batchmates: [mate],
    });
    expect(text).toContain("1p:drop-response@1.response,lose-and-retry@1.response trace t.jsonl");
    expect(text).toContain("1 other schedule(s) run through the same tap: 2p:lose-and-retry@2.response");
    expect(text).toContain('the analyzer said "clientMessageId null"');
  });

  test("a schedule run alone (a shrink candidate) has no such line", () => {
    const text = describeFinding({ schedule, falseStatements: [statement], traceFile: "t.jsonl" });
    expect(text).not.toContain("same tap");
  });
});
