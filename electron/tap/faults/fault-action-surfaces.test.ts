/**
 * Every surface of the fault-action table lists exactly the table's actions: the rule validator,
 * the tap's decision, `fault --help`, `proxy --help`, the board's words, the UI's buttons and
 * confirmations, the stress schedule and docs/faults.md. Adding an action to the table without its
 * surfaces (or a surface's action without the table) fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TimelineRow } from "../../../renderer/model/timeline/timeline-rows.js";
import { FAULT_BUTTONS } from "../../../renderer/views/faults/fault-catalogue.js";
import { CONFIRMED_ACTIONS } from "../../../renderer/views/faults/fault-confirm.js";
import { rowFaultItems } from "../../../renderer/views/faults/row-faults.js";
import { pointsOf, STRESS_ACTIONS } from "../../../shared/conformance/stress/schedule.js";
import { describeRuleInWords } from "../../../shared/faults/armed-fault.js";
import { FAULT_ACTION_TABLE, FAULT_ACTIONS, type FaultAction } from "../../../shared/faults/fault-actions.js";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { FaultRuleSet } from "../../../shared/faults/fault-rule-set.js";
import { checkFaultSpec } from "../../../shared/faults/rule-validation.js";
import { classifyFrame } from "../../../shared/protocol/frame.js";
import { faultCommand } from "../../cli/commands/fault.js";
import { proxyCommand } from "../../cli/commands/proxy.js";
import { parseFaultArg } from "./fault-arg.js";

const ROOT = join(import.meta.dirname, "../../..");
const sorted = (xs: Iterable<string>) => [...xs].sort();

/** The smallest valid spec of `action`. */
function specOf(action: FaultAction): Record<string, unknown> {
  return { action, ...(FAULT_ACTION_TABLE[action].needsDelay && { delayMs: 10 }) };
}

/** A rule of `action` that matches on a frame (a method), as a tap holds it. */
function ruleOf(action: FaultAction): FaultRule {
  const check = checkFaultSpec({ ...specOf(action), match: { method: "session/prompt" } });
  if (!check.ok) throw new Error(check.error);
  return { id: `r-${action}`, ...check.spec, armedAt: "2026-01-01T00:00:00Z" };
}

describe("the fault-action table's surfaces", () => {
  it("the rule validator and proxy --fault accept every action of the table and name exactly them when refusing", () => {
    for (const action of FAULT_ACTIONS) {
      expect(checkFaultSpec(specOf(action)).ok, action).toBe(true);
      const arg = `${action}${FAULT_ACTION_TABLE[action].needsDelay ? ":delay-ms=10" : ""}`;
      expect(typeof parseFaultArg(arg, 1), action).toBe("object");
    }
    const refusal = checkFaultSpec({ action: "explode" });
    expect(refusal.ok).toBe(false);
    const listed = refusal.ok ? "" : refusal.error.replace(/^action must be one of /, "");
    expect(listed.split(", ")).toEqual([...FAULT_ACTIONS]);
  });

  it("the validator fixes the frame of a one-trigger action and refuses `on` for an action that has none", () => {
    for (const action of FAULT_ACTIONS) {
      const { triggers } = FAULT_ACTION_TABLE[action];
      const check = checkFaultSpec(specOf(action));
      if (triggers.length === 1) expect(check.ok && check.spec.match.on, action).toBe(triggers[0]);
      if (triggers.length === 0)
        expect(checkFaultSpec({ ...specOf(action), match: { on: "request" } }).ok, action).toBe(false);
    }
  });

  it("the tap decides a matched frame as the table says", () => {
    const request = classifyFrame('{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}');
    const answer = classifyFrame('{"jsonrpc":"2.0","id":1,"result":{}}');
    const answered = { method: "session/prompt", params: {} };
    const expected = { drop: "drop", delay: "delay", immediate: "forward" } as const;
    for (const action of FAULT_ACTIONS) {
      const spec = FAULT_ACTION_TABLE[action];
      const set = new FaultRuleSet();
      set.replace([ruleOf(action)]);
      const onResponse = spec.triggers.length === 1 && spec.triggers[0] === "response";
      const decision = onResponse
        ? set.decide(answer, "agent->client", answered)
        : set.decide(request, "client->agent");
      expect(decision.action, action).toBe(spec.decision === "act" ? action : expected[spec.decision]);
    }
  });

  it("fault --help and proxy --help list exactly the table's actions", () => {
    const faultList = /Actions: ([^.]+)\./.exec(faultCommand.help)?.[1];
    expect(faultList?.split(", ")).toEqual([...FAULT_ACTIONS]);
    const described = [...faultCommand.help.matchAll(/^ {2}([a-z-]+) +\S/gm)].map((m) => m[1] as string);
    expect(described.filter((a) => FAULT_ACTION_TABLE[a as FaultAction] !== undefined)).toEqual([
      ...FAULT_ACTIONS,
    ]);
    const proxyList = /ACTION one of ([\s\S]+?) and names/.exec(proxyCommand.help)?.[1];
    expect(proxyList?.split(/,\s+/)).toEqual([...FAULT_ACTIONS]);
  });

  it("the board has words of its own for every action", () => {
    const words = FAULT_ACTIONS.map((a) => describeRuleInWords(ruleOf(a)));
    expect(new Set(words).size).toBe(FAULT_ACTIONS.length);
    // an action the table lacks falls back to "<Its name> on the next message"; none of the table's does
    for (const [i, a] of FAULT_ACTIONS.entries()) {
      const fallback = `${a.charAt(0).toUpperCase()}${a.slice(1).replace(/-/g, " ")} on `;
      expect(words[i]?.startsWith(fallback), a).toBe(false);
    }
    expect(describeRuleInWords({ ...ruleOf("kill-agent"), action: "explode" as FaultAction })).toBe(
      "Explode on the next session/prompt message",
    );
  });

  it("the UI's buttons, its confirmations and the row menu come from the table", () => {
    expect(FAULT_BUTTONS.map((b) => b.action)).toEqual([...FAULT_ACTIONS]);
    expect(sorted(CONFIRMED_ACTIONS)).toEqual(
      sorted(FAULT_ACTIONS.filter((a) => FAULT_ACTION_TABLE[a].confirm !== undefined)),
    );
    const row = {
      kind: "submission",
      row: { sessionId: "S1", key: "K-1" },
    } as unknown as TimelineRow;
    for (const item of rowFaultItems(row))
      if ("spec" in item) expect(FAULT_ACTIONS, item.label).toContain(item.spec.action);
  });

  it("the stress schedule's fault actions are table actions, hit where the table lets them fire", () => {
    for (const action of STRESS_ACTIONS) {
      if (action === "cancel") continue;
      expect(FAULT_ACTIONS).toContain(action);
      expect(pointsOf(action), action).toEqual(FAULT_ACTION_TABLE[action].triggers);
    }
  });

  it("docs/faults.md's rule table lists exactly the table's actions, in its order", () => {
    const doc = readFileSync(join(ROOT, "docs/faults.md"), "utf8");
    const rules = doc.slice(doc.indexOf("## Rules"), doc.indexOf("A rule matches on"));
    const listed = [...rules.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...FAULT_ACTIONS]);
  });
});
