import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERDICT_NAMES } from "../analyzer/verdicts.js";
import { checkFaultSpec } from "../faults/rule-validation.js";
import { AGENT_MODES, type WaitCondition } from "./scenario.js";
import { findScenario, SCENARIOS } from "./scenarios.js";

const RFD = "/work/shared/spec/rfd-v2-idempotency-keys.txt";
const squash = (s: string) => s.replace(/\s+/g, "").replace(/[“”]/g, '"');

function labelOf(c: WaitCondition): string | undefined {
  return "label" in c ? c.label : undefined;
}

describe("the demo scenarios", () => {
  it("are the four stories of the issue, with unique ids", () => {
    expect(SCENARIOS.map((s) => s.id)).toEqual([
      "lost-response",
      "crash-restart",
      "held-cancel",
      "naive-duplicate",
    ]);
    expect(findScenario("naive-duplicate")?.agentMode).toBe("naive");
    expect(findScenario("nope")).toBeUndefined();
  });

  for (const scenario of SCENARIOS) {
    describe(scenario.id, () => {
      it("has a title, a summary, a known mode and at least three steps", () => {
        expect(scenario.id).toMatch(/^[a-z][a-z-]*$/);
        expect(scenario.title.length).toBeGreaterThan(5);
        expect(scenario.summary.length).toBeGreaterThan(20);
        expect(AGENT_MODES).toContain(scenario.agentMode);
        expect(scenario.steps.length).toBeGreaterThanOrEqual(3);
      });

      it("has short captions and expectations for a presenter", () => {
        for (const step of scenario.steps) {
          expect(step.caption.trim().length).toBeGreaterThan(10);
          expect(step.caption.split(/(?<=[.!?])\s+/).length).toBeLessThanOrEqual(3);
          expect(step.caption.length).toBeLessThanOrEqual(240);
          expect(step.expectation.trim().length).toBeGreaterThan(10);
        }
      });

      it("cites the RFD in most steps", () => {
        const cited = scenario.steps.filter((s) => s.rfd !== "");
        expect(cited.length).toBeGreaterThanOrEqual(scenario.steps.length - 1);
      });

      it("only refers to submissions an earlier step sent, and arms valid fault rules", () => {
        const sent = new Set<string>();
        for (const step of scenario.steps) {
          const a = step.action;
          if (a.do === "send") {
            expect(sent.has(a.label)).toBe(false);
            sent.add(a.label);
          }
          if (a.do === "cancel") expect(sent.has(a.label)).toBe(true);
          if (a.do === "arm") expect(checkFaultSpec(a.rule)).toMatchObject({ ok: true });
          const label = step.until && labelOf(step.until);
          if (label !== undefined) expect(sent.has(label)).toBe(true);
          if (step.until?.kind === "verdict") expect(VERDICT_NAMES).toContain(step.until.verdict);
        }
        expect(sent.size).toBeGreaterThan(0);
      });

      it("ends by waiting for the analyzer's judgement", () => {
        const last = scenario.steps.at(-1)?.until?.kind;
        expect(["verdict", "all-cancelled"]).toContain(last);
      });
    });
  }

  it.runIf(existsSync(RFD))("quotes the RFD verbatim", () => {
    const text = squash(readFileSync(RFD, "utf8"));
    for (const step of SCENARIOS.flatMap((s) => s.steps)) {
      if (step.rfd) expect(text, step.rfd).toContain(squash(step.rfd));
    }
  });
});
