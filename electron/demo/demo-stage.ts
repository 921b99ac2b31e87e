/**
 * Playing a scenario on the live demo: the demo is the scenario runner's stage. Steps send prompts
 * through the demo client (remembered by label), arm fault rules on the hub (disarmed when the tap
 * is torn down) and cancel prompts; step conditions read the client's and the trace's facts.
 */
import type { DemoFacts, SubmissionFacts } from "../../shared/demo/demo-facts.js";
import type { ScenarioProgress } from "../../shared/demo/demo-wire.js";
import type { Scenario, StepAction } from "../../shared/demo/scenario.js";
import { ScenarioRunner, type ScenarioStage } from "../../shared/demo/scenario-runner.js";
import type { TrackedSubmission } from "../../shared/keys/client-submission-tracker.js";
import { callOperation, type HubTarget } from "../hub-client/hub-client.js";
import type { DemoChanges } from "./demo-changes.js";
import type { LiveDemoClient } from "./live-client.js";
import type { TraceWatch } from "./trace-watch.js";

/** The parts of the demo a scenario plays on. */
export interface DemoStageParts {
  /** The demo client of the running tap, if any. */
  client(): LiveDemoClient | undefined;
  readonly hub: HubTarget;
  readonly watch: TraceWatch;
  readonly changes: DemoChanges;
  /** How long a step may wait for its condition. */
  readonly stepTimeoutMs: number;
  readonly log?: (line: string) => void;
}

/** The live demo as a scenario stage: the scenario being played (at most one), its progress, and what its steps left behind. */
export class DemoStage {
  private runner: ScenarioRunner | undefined;
  private shown: ScenarioProgress | null = null;
  private labelled = new Map<string, TrackedSubmission>();
  private armed: string[] = [];

  constructor(private readonly parts: DemoStageParts) {}

  /** The progress of the latest scenario played, until `clearProgress`. */
  get progress(): ScenarioProgress | null {
    return this.shown;
  }

  /** The submissions the steps sent, by label. */
  get labels(): ReadonlyMap<string, TrackedSubmission> {
    return this.labelled;
  }

  /** Starts playing `scenario` (the demo must be ready in its mode); progress follows through `changed`. */
  play(scenario: Scenario, stepDelayMs: number | null): void {
    const runner = new ScenarioRunner(scenario, this.asStage(), {
      stepDelayMs,
      stepTimeoutMs: this.parts.stepTimeoutMs,
      onProgress: (p) => {
        if (this.runner === runner) {
          this.shown = p;
          this.parts.changes.changed();
        }
      },
    });
    this.runner = runner;
    this.shown = runner.current;
    void runner.run().then((end) => {
      if (end === "failed") this.parts.log?.(`scenario ${scenario.id} failed: ${runner.current.error}`);
    });
  }

  /**
   * Shows `scenario` at its first step, waiting for the fresh tap and agent it plays on: while they
   * start, the status names the scenario about to play, not the end of the last one.
   */
  prepare(scenario: Scenario, stepDelayMs: number | null): void {
    const first = scenario.steps[0];
    this.shown = {
      id: scenario.id,
      title: scenario.title,
      step: 0,
      steps: scenario.steps.length,
      caption: first?.caption ?? "",
      rfd: first?.rfd ?? "",
      phase: "waiting",
      waitingFor: "a fresh tap and agent",
      stepDelayMs,
    };
    this.parts.changes.changed();
  }

  /** Shows the scenario being prepared as failed: its tap or agent did not start. */
  failPrepared(error: string): void {
    if (this.runner || !this.shown || this.shown.phase !== "waiting") return;
    this.shown = { ...this.shown, phase: "failed", error };
    this.parts.changes.changed();
  }

  /** Lets a scenario waiting for the presenter go on to its next step. */
  next(): void {
    this.runner?.next();
  }

  /** Stops the scenario being played, if any, and shows it as stopped. */
  stop(): void {
    const runner = this.runner;
    if (!runner) {
      // a scenario still waiting for its tap and agent does not start after all
      if (this.shown?.phase === "waiting") {
        this.shown = { ...this.shown, phase: "stopped" };
        this.parts.changes.changed();
      }
      return;
    }
    this.runner = undefined;
    runner.stop();
    if (this.shown && !["finished", "failed"].includes(this.shown.phase)) {
      this.shown = { ...this.shown, phase: "stopped" };
      this.parts.changes.changed();
    }
  }

  /** Forgets the progress shown. */
  clearProgress(): void {
    this.shown = null;
  }

  /** Forgets the labelled submissions (their client is gone). */
  forgetLabels(): void {
    this.labelled = new Map();
  }

  /** Removes from the hub every fault rule the steps armed. */
  async disarm(): Promise<void> {
    for (const id of this.armed.splice(0)) {
      await callOperation(this.parts.hub, "disarmFault", { id }).catch(() => undefined);
    }
  }

  private facts(): DemoFacts {
    const submissions: Record<string, SubmissionFacts> = {};
    for (const [label, s] of this.labelled) {
      submissions[label] = {
        key: s.key,
        status: s.status,
        attempts: s.attempts.length,
        messageIds: s.messageIds,
      };
    }
    const client = this.parts.client();
    return {
      submissions,
      connections: client?.connectionCount ?? 0,
      deploys: client?.observer.observed.deploys.length ?? 0,
      faultsApplied: this.parts.watch.faultsApplied,
      analyzed: this.parts.watch.analyzed(),
    };
  }

  private asStage(): ScenarioStage {
    return {
      act: (action) => this.act(action),
      facts: () => this.facts(),
      watch: (onChange) => this.parts.changes.watch(onChange),
      timer: (ms) => {
        let cancel = () => {};
        const done = new Promise<void>((resolve) => {
          const t = setTimeout(resolve, ms);
          cancel = () => clearTimeout(t);
        });
        return { done, cancel };
      },
    };
  }

  private async act(action: StepAction): Promise<void> {
    const client = this.parts.client();
    if (!client) throw new Error("the demo client is not running");
    switch (action.do) {
      case "send":
        this.labelled.set(action.label, await client.send(action.text, action.withKey));
        return;
      case "arm": {
        // on the demo's own tap only; the hub answers once the tap acknowledged the rule, so the
        // step's next prompt cannot pass before the rule is in place
        const tap = this.parts.watch.traceId;
        if (tap === null) throw new Error("the demo's tap is not attached to the hub yet");
        const spec = { ...action.rule, target: { tap } };
        const r = await callOperation(this.parts.hub, "armFault", { spec }).catch((err: Error) => {
          throw new Error(`the hub refused the fault rule: ${err.message}`);
        });
        this.armed.push(r.rule.id);
        return;
      }
      case "cancel": {
        const s = this.labelled.get(action.label);
        if (!s) throw new Error(`no prompt ${action.label}`);
        if (client.cancel(s) === 0)
          throw new Error(`prompt ${action.label} has no pending request to cancel`);
        return;
      }
      case "observe":
        return;
    }
  }
}
