import { describe, expect, it } from "vitest";
import { type DemoFacts, NO_FACTS } from "./demo-facts.js";
import type { ScenarioProgress } from "./demo-wire.js";
import type { Scenario, StepAction } from "./scenario.js";
import { describePhase, ScenarioRunner, type ScenarioStage, type StageTimer } from "./scenario-runner.js";

/** A stage whose facts a test changes by hand and whose timers fire when the test says so. */
class TestStage implements ScenarioStage {
  acted: StepAction[] = [];
  current: DemoFacts = NO_FACTS;
  timers: Array<{ ms: number; fire(): void; cancelled: boolean }> = [];
  private listeners = new Set<() => void>();

  async act(action: StepAction): Promise<void> {
    this.acted.push(action);
    if (action.do === "cancel") throw new Error("cannot cancel here");
  }
  facts(): DemoFacts {
    return this.current;
  }
  watch(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  timer(ms: number): StageTimer {
    let fire = () => {};
    const done = new Promise<void>((r) => {
      fire = r;
    });
    const t = { ms, fire, cancelled: false };
    this.timers.push(t);
    return {
      done,
      cancel: () => {
        t.cancelled = true;
      },
    };
  }
  set(facts: Partial<DemoFacts>): void {
    this.current = { ...this.current, ...facts };
    for (const l of this.listeners) l();
  }
}

const STORY: Scenario = {
  id: "t",
  title: "Test story",
  short: "Story",
  summary: "A story for tests.",
  agentMode: "correct",
  turn: "normal",
  steps: [
    { caption: "one", rfd: "", action: { do: "observe" }, expectation: "seen one" },
    {
      caption: "two",
      rfd: "r",
      action: { do: "send", label: "A", text: "x", withKey: true },
      until: { kind: "answered", label: "A" },
      expectation: "seen two",
    },
  ],
};

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("ScenarioRunner", () => {
  it("acts, waits for the condition, shows the expectation, and advances on next()", async () => {
    const stage = new TestStage();
    const seen: ScenarioProgress[] = [];
    const runner = new ScenarioRunner(STORY, stage, {
      stepDelayMs: null,
      stepTimeoutMs: 1000,
      onProgress: (p) => seen.push(p),
    });
    const done = runner.run();
    await flush();
    expect(runner.current).toMatchObject({ step: 0, phase: "shown", expectation: "seen one" });
    runner.next();
    await flush();
    expect(runner.current).toMatchObject({ step: 1, phase: "waiting", waitingFor: "an answer to prompt A" });
    expect(stage.acted.map((a) => a.do)).toEqual(["observe", "send"]);
    stage.set({ submissions: { A: { key: "k", status: "answered", attempts: 1, messageIds: ["m"] } } });
    expect(await done).toBe("finished");
    expect(seen.map((p) => `${p.step}:${p.phase}`)).toEqual([
      "0:acting",
      "0:shown",
      "1:acting",
      "1:waiting",
      "1:shown",
      "1:finished",
    ]);
  });

  it("auto-advances after the step delay", async () => {
    const stage = new TestStage();
    const runner = new ScenarioRunner(STORY, stage, {
      stepDelayMs: 700,
      stepTimeoutMs: 1000,
      onProgress: () => {},
    });
    const done = runner.run();
    await flush();
    expect(stage.timers.map((t) => t.ms)).toEqual([700]);
    stage.timers[0]?.fire();
    await flush();
    expect(runner.current.step).toBe(1);
    stage.set({ submissions: { A: { key: "k", status: "answered", attempts: 1, messageIds: ["m"] } } });
    expect(await done).toBe("finished");
    expect(stage.timers.every((t) => t.cancelled)).toBe(true);
  });

  it("fails with a readable reason when a condition times out", async () => {
    const stage = new TestStage();
    const runner = new ScenarioRunner(STORY, stage, {
      stepDelayMs: 0,
      stepTimeoutMs: 1000,
      onProgress: () => {},
    });
    const done = runner.run();
    await flush();
    stage.timers[0]?.fire();
    await flush();
    stage.timers.find((t) => t.ms === 1000)?.fire();
    expect(await done).toBe("failed");
    expect(runner.current.error).toMatch(/waited 1000 ms for an answer to prompt A/);
  });

  it("stops while waiting, and reports an action that failed", async () => {
    const stage = new TestStage();
    const runner = new ScenarioRunner(STORY, stage, {
      stepDelayMs: null,
      stepTimeoutMs: 1000,
      onProgress: () => {},
    });
    const done = runner.run();
    await flush();
    runner.stop();
    expect(await done).toBe("stopped");
    expect(runner.current.phase).toBe("stopped");

    const failing = new ScenarioRunner(
      {
        ...STORY,
        steps: [{ caption: "c", rfd: "", action: { do: "cancel", label: "A" }, expectation: "e" }],
      },
      new TestStage(),
      { stepDelayMs: null, stepTimeoutMs: 1000, onProgress: () => {} },
    );
    expect(await failing.run()).toBe("failed");
    expect(failing.current.error).toBe("cannot cancel here");
  });
});

describe("the scenario's status in words", () => {
  it("says what each phase is doing, and says finished only after the last step", async () => {
    const stage = new TestStage();
    const seen: string[] = [];
    const runner = new ScenarioRunner(STORY, stage, {
      stepDelayMs: null,
      stepTimeoutMs: 1000,
      onProgress: (p) => seen.push(describePhase(p)),
    });
    const done = runner.run();
    await flush();
    runner.next();
    await flush();
    stage.set({ submissions: { A: { key: "k", status: "answered", attempts: 1, messageIds: ["m"] } } });
    expect(await done).toBe("finished");
    expect(seen).toEqual([
      "Running…",
      "Done; Next step goes on",
      "Running…",
      "Waiting for an answer to prompt A…",
      "Done",
      "Finished: all 2 steps played",
    ]);
    // While a step runs or waits, nothing says done or finished.
    for (const text of seen.filter((t) => t.includes("Running") || t.includes("Waiting")))
      expect(text).not.toMatch(/done|finished/i);
  });

  it("says where a scenario stopped or failed, and why", () => {
    const base: ScenarioProgress = {
      id: "s",
      title: "Story",
      step: 1,
      steps: 4,
      caption: "",
      rfd: "",
      phase: "stopped",
      stepDelayMs: 0,
    };
    expect(describePhase(base)).toBe("Stopped at step 2 of 4");
    expect(describePhase({ ...base, phase: "failed", error: "waited 10 ms" })).toBe(
      "Failed at step 2 of 4: waited 10 ms",
    );
    expect(describePhase({ ...base, phase: "shown" })).toBe("Done; the next step follows");
  });
});
