import { describe, expect, test } from "vitest";
import { CONFORMANCE_CASES } from "./case-catalogue.js";
import type { CaseResult } from "./conformance-result.js";
import {
  type AgentChoice,
  applyProgress,
  casesDone,
  failRun,
  finishRun,
  isActive,
  parseConformanceStart,
  startRun,
  withTrace,
} from "./conformance-run.js";
import { summarize } from "./conformance-summary.js";

const AGENT: AgentChoice = { id: "demo-correct", label: "demo", source: "built-in", target: "demo-agent" };

function result(name: CaseResult["name"], status: CaseResult["status"]): CaseResult {
  const d = CONFORMANCE_CASES.find((c) => c.name === name);
  if (!d) throw new Error(name);
  return { ...d, status, reason: `${name} ${status}`, analyzerViolations: [], durationMs: 42, outcomes: [] };
}

describe("a conformance run's status", () => {
  test("starts with the selected cases waiting, in catalogue order", () => {
    const all = startRun("r1", AGENT, "t0", "/d");
    expect(all.cases.map((c) => c.name)).toEqual(CONFORMANCE_CASES.map((c) => c.name));
    expect(all.cases.every((c) => c.state === "waiting")).toBe(true);
    const two = startRun("r1", AGENT, "t0", "/d", ["keys-private", "key-validation"]);
    expect(two.cases.map((c) => c.name)).toEqual(["key-validation", "keys-private"]);
    expect(isActive(two.state)).toBe(true);
  });

  test("ticks case by case and keeps stored trace ids through the final report", () => {
    let s = startRun("r1", AGENT, "t0", "/d", ["key-validation", "retry-same-connection"]);
    s = applyProgress(s, { kind: "case-start", name: "key-validation", title: "" });
    expect(s.cases[0]?.state).toBe("running");
    expect(casesDone(s)).toBe(0);
    const kv = result("key-validation", "pass");
    s = applyProgress(s, { kind: "case-end", result: kv });
    s = withTrace(s, "key-validation", "r1-key-validation");
    s = withTrace(s, "probe", "r1-probe");
    expect(casesDone(s)).toBe(1);
    expect(s.cases[0]).toMatchObject({ state: "pass", reason: "key-validation pass", durationMs: 42 });
    const cases = [kv, result("retry-same-connection", "fail")];
    const probe = { status: "v2" as const, protocolVersion: 2 };
    const done = finishRun(s, cases, summarize(probe, cases), "t1");
    expect(done.state).toBe("done");
    expect(isActive(done.state)).toBe(false);
    expect(done.cases.map((c) => c.state)).toEqual(["pass", "fail"]);
    expect(done.cases[0]?.traceId).toBe("r1-key-validation");
    expect(done.probeTraceId).toBe("r1-probe");
    expect(done.summary?.requiredFailed).toBe(1);
  });

  test("a cancelled run ends as cancelled; a broken one fails its unfinished cases", () => {
    const s = { ...startRun("r1", AGENT, "t0", "/d", ["key-validation"]), state: "cancelling" as const };
    const cases = [result("key-validation", "skip")];
    expect(finishRun(s, cases, summarize({ status: "v2", protocolVersion: 2 }, cases), "t1").state).toBe(
      "cancelled",
    );
    const broken = failRun(startRun("r1", AGENT, "t0", "/d", ["key-validation"]), "disk full", "t1");
    expect(broken).toMatchObject({ state: "error", error: "disk full" });
    expect(broken.cases[0]).toMatchObject({ state: "fail", reason: "disk full" });
  });
});

describe("a start request from a UI", () => {
  test("names an agent choice and optionally known cases", () => {
    expect(parseConformanceStart({ agent: "demo-naive" })).toEqual({ agent: "demo-naive" });
    expect(parseConformanceStart({ agent: "config-1", only: ["keys-private", "keys-private"] })).toEqual({
      agent: "config-1",
      only: ["keys-private"],
    });
  });

  test.each([
    [null, "object"],
    [{ agent: 7 }, "agent"],
    [{ agent: "../x" }, "agent"],
    [{ agent: "a", only: [] }, "non-empty"],
    [{ agent: "a", only: ["rm -rf"] }, "unknown case"],
  ])("refuses %j", (v, message) => {
    const r = parseConformanceStart(v);
    expect("error" in r && r.error).toContain(message);
  });

  test("cannot carry a command: extra fields are dropped", () => {
    expect(parseConformanceStart({ agent: "demo-correct", command: ["sh", "-c", "x"] })).toEqual({
      agent: "demo-correct",
    });
  });
});
