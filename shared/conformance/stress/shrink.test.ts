/** The shrinker on synthetic predicates (unit): no processes, a failure is a pure function of the schedule. */
import { describe, expect, it } from "vitest";
import type { InvariantViolation } from "./invariants.js";
import { parseSchedule, printSchedule, type StressSchedule } from "./schedule.js";
import { failureSignature, keepsFailure, keyRole, shrinkSchedule, simplerFaults } from "./shrink.js";

const has = (s: StressSchedule, action: string) => s.faults.some((f) => f.action === action);

describe("shrinkSchedule", () => {
  it("removes every fault the failure does not need and simplifies the rest", async () => {
    const start = parseSchedule(
      "4p:delay@3.request+700,drop-response@4.response,cancel@2+160,kill-agent@3.response,drop-request@1.request",
    );
    // Fails whenever a kill-agent is in the schedule and a drop-response follows a delay.
    const tried: string[] = [];
    const fails = async (s: StressSchedule) => {
      tried.push(printSchedule(s));
      return has(s, "kill-agent") ? { n: s.faults.length } : undefined;
    };
    const r = await shrinkSchedule(start, { n: 5 }, fails);
    expect(printSchedule(r.schedule)).toBe("1p:kill-agent@1.request");
    expect(r.evidence).toEqual({ n: 1 });
    expect(r.tries).toBe(tried.length);
    expect(r.cut).toBe(false);
    // Never runs the same candidate twice.
    expect(new Set(tried).size).toBe(tried.length);
  });

  it("keeps two faults that only fail together", async () => {
    const start = parseSchedule(
      "3p:delay@1.request+100,drop-response@2.response,cancel@3+20,disconnect-client@3.response",
    );
    const fails = async (s: StressSchedule) =>
      has(s, "drop-response") && has(s, "disconnect-client") && s.faults.every((f) => f.prompt >= 2)
        ? true
        : undefined;
    const r = await shrinkSchedule(start, true, fails);
    expect(printSchedule(r.schedule)).toBe("2p:drop-response@2.response,disconnect-client@2.request");
  });

  it("returns the last schedule seen failing when the failure is flaky, never a passing one", async () => {
    const start = parseSchedule("2p:drop-response@1.response,drop-response@2.response,kill-agent@2.request");
    let calls = 0;
    // Fails only on the first try, whatever it is.
    const r = await shrinkSchedule(start, "first", async () => (++calls === 1 ? "again" : undefined));
    expect(r.evidence).toBe("again");
    expect(printSchedule(r.schedule)).toBe("2p:kill-agent@2.request");
  });

  it("stops at maxTries", async () => {
    const start = parseSchedule(
      "4p:delay@4.response+1000,delay@4.response+900,delay@3.response+800,delay@2.response+700",
    );
    const r = await shrinkSchedule(start, 0, async () => 1, 3);
    expect(r.tries).toBe(3);
    expect(r.cut).toBe(true);
  });

  it("offers simpler points: an earlier prompt, the request, a shorter wait", () => {
    expect(
      simplerFaults({ action: "delay", prompt: 3, on: "response", ms: 400 }).map(
        (f) => `${f.prompt}.${f.on}+${f.ms}`,
      ),
    ).toEqual(["1.response+400", "2.response+400", "3.request+400", "3.response+50", "3.response+200"]);
    expect(simplerFaults({ action: "drop-response", prompt: 1, on: "response" })).toEqual([]);
    expect(simplerFaults({ action: "cancel", prompt: 1, ms: 0 })).toEqual([]);
  });
});

describe("a shrink keeps its failure", () => {
  const v = (invariant: InvariantViolation["invariant"], key: string): InvariantViolation => ({
    invariant,
    key,
    message: `${invariant} on ${key}`,
    seqs: [],
  });

  it("never drifts to another invariant or another prompt's key", async () => {
    const start = parseSchedule("3p:delay@2.request+50,restart-and-retry@1.response,drop-request@3.request");
    const original = [v("answered", "stress-aaaa-p2")];
    // Any smaller schedule still fails, but with another failure: a -32002 on an unprompted session
    // shows up as prompt 1 lost, or prompt 2 breaks another invariant.
    const fails = async (s: StressSchedule): Promise<InvariantViolation[] | undefined> => {
      if (s.faults.length === 3) return original;
      if (has(s, "restart-and-retry") && has(s, "delay")) return [v("answered", "stress-bbbb-p2")];
      if (has(s, "delay")) return [v("one-insert", "stress-bbbb-p2")];
      return [v("answered", "stress-bbbb-p1")];
    };
    const r = await shrinkSchedule(start, original, fails, 40, (a, b) => keepsFailure(a, b));
    // Only the pair the original failure needs is left, failing as it started (another run's nonce).
    expect(r.schedule.faults.map((f) => f.action).sort()).toEqual(["delay", "restart-and-retry"]);
    expect(failureSignature(r.evidence)).toEqual(["answered@p2"]);
  });

  it("compares failures by invariant and the role of the key (its prompt)", () => {
    expect(keyRole("stress-1f2e-p12")).toBe("p12");
    expect(
      keepsFailure(
        [v("answered", "stress-a-p2")],
        [v("one-insert", "stress-b-p1"), v("answered", "stress-b-p2")],
      ),
    ).toBe(true);
    expect(keepsFailure([v("answered", "stress-a-p2")], [v("answered", "stress-b-p1")])).toBe(false);
    expect(keepsFailure([v("answered", "stress-a-p2")], [v("same-message-id", "stress-b-p2")])).toBe(false);
    // A run that failed without a broken invariant (it could not run) only keeps a failure of that kind.
    expect(keepsFailure([], [])).toBe(true);
    expect(keepsFailure([], [v("answered", "stress-b-p1")])).toBe(false);
  });
});
