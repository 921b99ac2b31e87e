/**
 * Plays a scenario on a stage (the live demo, or a test's stand-in): for each step it shows the
 * caption, performs the action, waits until the step's condition holds in the stage's facts
 * (bounded by a timeout), shows the expectation, then pauses for the presenter: a fixed delay
 * (auto-advance) or until `next()`. Pure: timers come from the stage.
 */
import type { DemoFacts } from "./demo-facts.js";
import { conditionHolds, describeCondition } from "./demo-facts.js";
import type { ScenarioProgress } from "./demo-wire.js";
import type { Scenario, StepAction, WaitCondition } from "./scenario.js";

/** A cancellable timer. */
export interface StageTimer {
  readonly done: Promise<void>;
  cancel(): void;
}

/** What a scenario plays on. */
export interface ScenarioStage {
  /** Performs one step's action; rejects when it cannot. */
  act(action: StepAction): Promise<void>;
  /** The facts as they stand. */
  facts(): DemoFacts;
  /** Calls `onChange` whenever the facts may have changed; returns an unsubscribe. */
  watch(onChange: () => void): () => void;
  /** Resolves after `ms`. */
  timer(ms: number): StageTimer;
}

/** How to play. */
export interface RunnerOptions {
  /** Pause after each step before the next, ms; null waits for `next()`. */
  readonly stepDelayMs: number | null;
  /** How long a step may wait for its condition before the scenario fails. */
  readonly stepTimeoutMs: number;
  readonly onProgress: (progress: ScenarioProgress) => void;
}

class Stopped extends Error {}

/** One play of one scenario. */
export class ScenarioRunner {
  private stopped = false;
  private wake: (() => void) | undefined;
  private abort: ((err: Error) => void) | undefined;
  private progress: ScenarioProgress;

  constructor(
    private readonly scenario: Scenario,
    private readonly stage: ScenarioStage,
    private readonly options: RunnerOptions,
  ) {
    this.progress = this.at(0, "acting");
  }

  /** The current progress. */
  get current(): ScenarioProgress {
    return this.progress;
  }

  /** Plays every step; resolves with how it ended. Never rejects. */
  async run(): Promise<"finished" | "stopped" | "failed"> {
    const steps = this.scenario.steps;
    try {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i];
        if (!step) break;
        this.show(this.at(i, "acting"));
        await this.guard(this.stage.act(step.action));
        if (step.until) {
          this.show({ ...this.at(i, "waiting"), waitingFor: describeCondition(step.until) });
          await this.waitFor(step.until);
        }
        this.show({ ...this.at(i, "shown"), expectation: step.expectation });
        if (i < steps.length - 1) await this.pause();
      }
      this.show({ ...this.progress, phase: "finished" });
      return "finished";
    } catch (err) {
      if (err instanceof Stopped) {
        this.show({ ...this.progress, phase: "stopped" });
        return "stopped";
      }
      this.show({
        ...this.progress,
        phase: "failed",
        error: err instanceof Error ? err.message : String(err),
      });
      return "failed";
    }
  }

  /** Advances a scenario that waits for the presenter (ignored otherwise). */
  next(): void {
    this.wake?.();
  }

  /** Stops the scenario at its current step. */
  stop(): void {
    this.stopped = true;
    this.abort?.(new Stopped());
  }

  private at(step: number, phase: ScenarioProgress["phase"]): ScenarioProgress {
    const s = this.scenario.steps[step];
    return {
      id: this.scenario.id,
      title: this.scenario.title,
      step,
      steps: this.scenario.steps.length,
      caption: s?.caption ?? "",
      rfd: s?.rfd ?? "",
      phase,
      stepDelayMs: this.options.stepDelayMs,
    };
  }

  private show(progress: ScenarioProgress): void {
    this.progress = progress;
    this.options.onProgress(progress);
  }

  /** Races `work` against `stop()`. */
  private guard<T>(work: Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new Stopped());
    return new Promise<T>((resolve, reject) => {
      this.abort = reject;
      work.then(resolve, reject);
    }).finally(() => {
      this.abort = undefined;
    });
  }

  private waitFor(condition: WaitCondition): Promise<void> {
    let unwatch = () => {};
    const timeout = this.stage.timer(this.options.stepTimeoutMs);
    const held = new Promise<void>((resolve, reject) => {
      const check = () => {
        if (conditionHolds(condition, this.stage.facts())) resolve();
      };
      unwatch = this.stage.watch(check);
      check();
      timeout.done.then(() =>
        reject(
          new Error(
            `waited ${this.options.stepTimeoutMs} ms for ${describeCondition(condition)}; it did not happen`,
          ),
        ),
      );
    });
    return this.guard(held).finally(() => {
      unwatch();
      timeout.cancel();
    });
  }

  private pause(): Promise<void> {
    const delay = this.options.stepDelayMs;
    if (delay !== null) {
      const t = this.stage.timer(delay);
      return this.guard(t.done).finally(() => t.cancel());
    }
    return this.guard(
      new Promise<void>((resolve) => {
        this.wake = resolve;
      }),
    ).finally(() => {
      this.wake = undefined;
    });
  }
}

/**
 * Where the scenario stands, in words for its caption, whose header names the scenario and the
 * step: `Running…`, `Done; Next step goes on`, `Finished: all 4 steps played`. It says done only
 * once the step's condition held, and finished only after the last step, never while a step runs.
 */
export function describePhase(p: ScenarioProgress): string {
  switch (p.phase) {
    case "acting":
      return "Running…";
    case "waiting":
      return `Waiting for ${p.waitingFor ?? "the step's condition"}…`;
    case "shown":
      return p.step < p.steps - 1
        ? `Done; ${p.stepDelayMs === null ? "Next step goes on" : "the next step follows"}`
        : "Done";
    case "finished":
      return `Finished: all ${p.steps} steps played`;
    case "stopped":
      return `Stopped at step ${p.step + 1} of ${p.steps}`;
    case "failed":
      return `Failed at step ${p.step + 1} of ${p.steps}: ${p.error ?? "unknown error"}`;
  }
}
