/**
 * The built-in demo: the reference agent behind the real tap, an in-process demo client, and the
 * scenario player, next to a hub. UIs see it through `demo-status` messages and drive it with
 * `DemoCommand`s (see docs/demo.md). Every play of a scenario, and every reset, starts a fresh tap
 * (one trace on the hub) in the scenario's agent mode, with one session store per mode. This file
 * runs the tap, agent and client; demo-stage.ts plays scenarios on them, demo-status.ts builds
 * the status and demo-changes.ts tells listeners.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DemoCommand, DemoStatus } from "../../shared/demo/demo-wire.js";
import type { AgentMode, TurnLength } from "../../shared/demo/scenario.js";
import { findScenario } from "../../shared/demo/scenarios.js";
import { uiLink } from "../../shared/hub/hub-auth.js";
import type { TrackedSubmission } from "../../shared/keys/client-submission-tracker.js";
import type { HubTarget } from "../hub-client/hub-client.js";
import { writeRendezvous } from "../hub-client/rendezvous.js";
import { DemoChanges } from "./demo-changes.js";
import { DemoStage } from "./demo-stage.js";
import { demoStatus } from "./demo-status.js";
import { type DemoTap, startDemoTap } from "./demo-tap.js";
import { LiveDemoClient } from "./live-client.js";
import { TraceWatch } from "./trace-watch.js";

/** How to run the demo. */
export interface BuiltInDemoOptions {
  /** The hub the demo's tap reports to and its UIs watch. */
  readonly hub: { readonly port: number; readonly token: string; readonly hubId: string };
  /** The CLI bundle (`dist/cli.js`) the tap and agent run from. */
  readonly cliPath: string;
  /** A folder the demo owns: agent stores (one per mode), the tap's rendezvous file and trace copies. */
  readonly dataDir: string;
  /** The agent's `--turn-ms` (default 1500: readable). */
  readonly turnMs?: number;
  /** `--turn-ms` for scenarios with long turns (default 120 000). */
  readonly longTurnMs?: number;
  /** The client's per-attempt timeout before it resends (default 3000). */
  readonly attemptTimeoutMs?: number;
  /** How long a scenario step may wait for its condition (default 30 000). */
  readonly stepTimeoutMs?: number;
  /** The agent mode at start (default `correct`). */
  readonly mode?: AgentMode;
  /** Diagnostics (the tap's stderr, failures). */
  readonly log?: (line: string) => void;
}

/** The name of a demo tap that plays no scenario (`proxy --name`); a scenario's tap is named after it. */
function tapNameOf(mode: AgentMode): string {
  return `demo agent, ${mode} mode`;
}

/** The running demo. */
export class BuiltInDemo {
  private tap: DemoTap | undefined;
  private client: LiveDemoClient | undefined;
  private readonly watch: TraceWatch;
  private readonly changes = new DemoChanges(() => this.status());
  private readonly stage: DemoStage;
  private mode: AgentMode;
  private turn: TurnLength = "normal";
  private state: DemoStatus["state"] = "starting";
  private error: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(private readonly o: BuiltInDemoOptions) {
    this.mode = o.mode ?? "correct";
    const hub: HubTarget = { base: `http://127.0.0.1:${o.hub.port}`, token: o.hub.token };
    this.watch = new TraceWatch(o.hub, () => this.changes.changed());
    this.stage = new DemoStage({
      client: () => this.client,
      hub,
      watch: this.watch,
      changes: this.changes,
      stepTimeoutMs: o.stepTimeoutMs ?? 30_000,
      log: o.log,
    });
  }

  /** Starts the demo (tap, agent, client) and resolves once the client has a session. */
  static async start(options: BuiltInDemoOptions): Promise<BuiltInDemo> {
    const demo = new BuiltInDemo(options);
    mkdirSync(options.dataDir, { recursive: true });
    writeRendezvous(join(options.dataDir, "run", "hub.json"), {
      v: 1,
      hubId: options.hub.hubId,
      pid: process.pid,
      port: options.hub.port,
      token: options.hub.token,
      url: uiLink(`http://127.0.0.1:${options.hub.port}`, options.hub.token),
      startedAt: new Date().toISOString(),
    });
    await demo.watch.open();
    await demo.enqueue(() => demo.restart(demo.mode, "normal", tapNameOf(demo.mode)));
    return demo;
  }

  /** The demo's state, as UIs show it. */
  status(): DemoStatus {
    return demoStatus({
      state: this.state,
      error: this.error,
      mode: this.mode,
      tapPid: this.tap?.pid ?? null,
      client: this.client,
      watch: this.watch,
      labels: this.stage.labels,
      scenario: this.stage.progress,
    });
  }

  /** Calls `listener` on every change (throttled); returns an unsubscribe. */
  onStatus(listener: (s: DemoStatus) => void): () => void {
    return this.changes.onStatus(listener);
  }

  /** Carries out a validated UI command. */
  async command(c: DemoCommand): Promise<void> {
    switch (c.op) {
      case "send":
        await this.send(c.text, c.withKey);
        return;
      case "play":
        await this.runScenario(c.scenario, { stepDelayMs: c.stepDelayMs });
        return;
      case "next":
        this.stage.next();
        return;
      case "stop":
        this.stopScenario();
        return;
      case "reset":
        await this.reset(c.mode);
        return;
    }
  }

  /** Submits a prompt from the demo panel. */
  async send(text: string, withKey: boolean): Promise<TrackedSubmission> {
    const client = this.client;
    if (!client || this.state !== "ready") throw new Error(`the demo is ${this.state}`);
    return client.send(text, withKey);
  }

  /**
   * Plays a scenario on a fresh tap in its agent mode; resolves once it started (progress follows
   * in the status). `stepDelayMs` null waits for `next()` after each step.
   */
  async runScenario(id: string, options: { stepDelayMs: number | null }): Promise<void> {
    const scenario = findScenario(id);
    if (!scenario) throw new Error(`no scenario ${id}`);
    this.stopScenario();
    this.stage.prepare(scenario, options.stepDelayMs);
    await this.enqueue(() => this.restart(scenario.agentMode, scenario.turn, `${scenario.title} (demo)`));
    if (this.state !== "ready") {
      const error = this.error ?? "the demo agent did not start";
      this.stage.failPrepared(error);
      throw new Error(error);
    }
    // stopped (or replaced by another scenario) while its tap and agent started
    const prepared = this.stage.progress;
    if (prepared?.id !== scenario.id || prepared.phase !== "waiting") return;
    this.stage.play(scenario, options.stepDelayMs);
  }

  /** Stops the scenario being played, if any (the demo keeps running). */
  stopScenario(): void {
    this.stage.stop();
  }

  /** Restarts the tap and agent (in `mode`, or the current one) with a fresh client and session. */
  async reset(mode?: AgentMode): Promise<void> {
    this.stopScenario();
    this.stage.clearProgress();
    await this.enqueue(() => this.restart(mode ?? this.mode, "normal", tapNameOf(mode ?? this.mode)));
  }

  /** Stops everything the demo started. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopScenario();
    await this.enqueue(() => this.teardown());
    this.watch.close();
    this.changes.close();
    this.state = "stopped";
    rmSync(join(this.o.dataDir, "run"), { recursive: true, force: true });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async teardown(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
    await this.tap?.stop();
    this.tap = undefined;
    await this.stage.disarm();
  }

  private async restart(mode: AgentMode, turn: TurnLength, name: string): Promise<void> {
    await this.teardown();
    if (this.closed) return;
    this.mode = mode;
    this.turn = turn;
    this.state = "starting";
    this.error = undefined;
    this.stage.forgetLabels();
    this.changes.changed();
    const store = join(this.o.dataDir, `store-${mode}`);
    const turnMs = turn === "long" ? (this.o.longTurnMs ?? 120_000) : (this.o.turnMs ?? 1500);
    try {
      this.watch.follow((command) => command.includes(store));
      // The tap never replaces an existing trace file: the demo's own copy of the last run goes first.
      const tracePath = join(this.o.dataDir, `tap-${mode}.jsonl`);
      rmSync(tracePath, { force: true });
      this.tap = await startDemoTap({
        cliPath: this.o.cliPath,
        store,
        mode,
        turnMs,
        name,
        runtimeDir: join(this.o.dataDir, "run"),
        tracePath,
        cwd: this.o.dataDir,
        onStderr: (line) => this.o.log?.(line),
      });
      await this.changes.until(
        () => this.watch.traceId !== null,
        10_000,
        "the demo tap did not attach to the hub",
      );
      const client = new LiveDemoClient({
        url: this.tap.url,
        token: this.tap.token,
        cwd: this.o.dataDir,
        attemptTimeoutMs: this.o.attemptTimeoutMs ?? 3_000,
        onChange: () => this.changes.changed(),
      });
      this.client = client;
      await client.start();
      this.state = "ready";
    } catch (err) {
      this.state = "failed";
      this.error = err instanceof Error ? err.message : String(err);
      this.o.log?.(`demo: ${this.error}`);
    }
    this.changes.changed();
  }
}
