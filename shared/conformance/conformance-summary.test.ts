import { describe, expect, test } from "vitest";
import { CASE_NAMES, CONFORMANCE_CASES, caseDefinition, isCaseName } from "./case-catalogue.js";
import type { AgentProbe, CaseResult } from "./conformance-result.js";
import { summarize } from "./conformance-summary.js";

const v2: AgentProbe = { status: "v2", protocolVersion: 2 };

function result(name: string, status: CaseResult["status"], required = true): CaseResult {
  return {
    name: name as never,
    title: "",
    rule: "",
    required,
    status,
    reason: "",
    analyzerViolations: [],
    durationMs: 0,
    outcomes: [],
  };
}

describe("summarize", () => {
  test("ok when no required case failed; skips and informative failures do not fail a run", () => {
    const s = summarize(v2, [result("a", "pass"), result("b", "skip"), result("c", "fail", false)]);
    expect(s).toEqual({
      passed: 1,
      failed: 1,
      skipped: 1,
      notRun: 0,
      requiredFailed: 0,
      ok: true,
      exitStatus: 0,
    });
  });
  test("a failed required case makes exit status 1", () => {
    expect(summarize(v2, [result("a", "pass"), result("b", "fail")])).toMatchObject({
      ok: false,
      exitStatus: 1,
      requiredFailed: 1,
    });
  });
  test("an agent without v2 is exit 3; one that did not answer is exit 1", () => {
    expect(summarize({ status: "not-v2", protocolVersion: 1 }, [result("a", "skip")]).exitStatus).toBe(3);
    expect(summarize({ status: "failed", protocolVersion: null }, [result("a", "fail")]).exitStatus).toBe(1);
  });
});

describe("the case catalogue", () => {
  test("names are unique, known, and each case quotes an RFD sentence", () => {
    expect(new Set(CASE_NAMES).size).toBe(CONFORMANCE_CASES.length);
    for (const c of CONFORMANCE_CASES) {
      expect(isCaseName(c.name)).toBe(true);
      expect(caseDefinition(c.name)).toBe(c);
      expect(c.rule.length).toBeGreaterThan(40);
    }
    expect(isCaseName("nope")).toBe(false);
    expect(CONFORMANCE_CASES.filter((c) => !c.required).map((c) => c.name)).toEqual(["different-prompt"]);
  });
});
