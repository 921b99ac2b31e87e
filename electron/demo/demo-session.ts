/**
 * The built-in demo: the reference agent behind the real tap, an in-process demo client, and the
 * scenario player, next to a hub. UIs see it through `demo-status` messages and drive it with
 * `DemoCommand`s (see docs/demo.md). Every play of a scenario, and every reset, starts a fresh tap
 * (one trace on the hub) in the scenario's agent mode, with one session store per mode.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DemoFacts, SubmissionFacts } from "../../shared/demo/demo-facts.js";
import {
  DEMO_WIRE_VERSION,
  type DemoCommand,
  type DemoStatus,
  type ScenarioProgress,
} from "../../shared/demo/demo-wire.js";
import type { AgentMode, StepAction, TurnLength } from "../../shared/demo/scenario.js";
import { ScenarioRunner, type ScenarioStage } from "../../shared/demo/scenario-runner.js";
import { findScenario } from "../../shared/demo/scenarios.js";
import type { Submission } from "../../shared/keys/client-submission-tracker.js";
import { callHub, type HubTarget } from "../hub/hub-client.js";
import { writeRendezvous } from "../hub/rendezvous.js";
import { type DemoTap, startDemoTap } from "./demo-tap.js";
import { LiveDemoClient } from "./live-client.js";
import { TraceWatch } from "./trace-watch.js";

/** How to run the demo. */
export interface DemoSessionOptions {
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

/** How often, at most, status listeners hear about changes (ms). */
const STATUS_THROTTLE_MS = 40;

/** The running demo. */
export class DemoSession {
  private tap: DemoTap | undefined;
  private client: LiveDemoClient | undefined;
  private readonly watch: TraceWatch;
  private mode: AgentMode;
  private turn: TurnLength = "normal";
  private state: DemoStatus["state"] = "starting";
  private error: string | undefined;
  private runner: ScenarioRunner | undefined;
  private progress: ScenarioProgress | null = null;
  private labels = new Map<string, Submission>();
  private armed: string[] = [];
  private readonly statusListeners = new Set<(s: DemoStatus) => void>();
  private readonly factListeners = new Set<() => void>();
  private statusTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly hubTarget: HubTarget;

  private constructor(private readonly o: DemoSessionOptions) {
    this.mode = o.mode ?? "correct";
    this.hubTarget = { base: `http://127.0.0.1:${o.hub.port}`, token: o.hub.token };
    this.watch = new TraceWatch(o.hub, () => this.changed());
  }

  /** Starts the demo (tap, agent, client) and resolves once the client has a session. */
  static async start(options: DemoSessionOptions): Promise<DemoSession> {
    const demo = new DemoSession(options);
    mkdirSync(options.dataDir, { recursive: true });
    writeRendezvous(join(options.dataDir, "run", "hub.json"), {
      v: 1,
      hubId: options.hub.hubId,
      pid: process.pid,
      port: options.hub.port,
      token: options.hub.token,
      url: `http://127.0.0.1:${options.hub.port}/?token=${options.hub.token}`,
      startedAt: new Date().toISOString(),
    });
    await demo.watch.open();
    await demo.enqueue(() => demo.restart(demo.mode, "normal"));
    return demo;
  }

  /** The demo's state, as UIs show it. */
  status(): DemoStatus {
    const client = this.client;
    const subs = client?.tracker.all() ?? [];
    const labelOf = new Map([...this.labels].map(([label, s]) => [s.index, label]));
    const analyzed = this.watch.analyzed();
    return {
      v: DEMO_WIRE_VERSION,
      state: this.state,
      ...(this.error !== undefined && { error: this.error }),
      mode: this.mode,
      tapPid: this.tap?.pid ?? null,
      agentPid: this.watch.agentPid,
      traceId: this.watch.traceId,
      client: client?.status() ?? { state: "idle", conn: 0, sessionId: null },
      submissions: subs.slice(-10).map((s) => ({
        index: s.index,
        ...(labelOf.has(s.index) && { label: labelOf.get(s.index) }),
        text: client?.textOf(s.index) ?? "",
        key: s.key,
        status: s.status,
        attempts: s.attempts.length,
        messageIds: [...s.messageIds],
        ...(s.error && { error: `${s.error.code} ${s.error.message}` }),
        ...(s.key !== null &&
          analyzed[s.key] && {
            inspected: {
              inserts: analyzed[s.key]?.inserts ?? 0,
              verdicts: [...(analyzed[s.key]?.verdicts ?? [])],
            },
          }),
      })),
      deploys: client?.observer.observed.deploys.length ?? 0,
      log: [...(client?.recentLog ?? [])],
      scenario: this.progress,
    };
  }

  /** Calls `listener` on every change (throttled); returns an unsubscribe. */
  onStatus(listener: (s: DemoStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
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
        this.runner?.next();
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
  async send(text: string, withKey: boolean): Promise<Submission> {
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
    await this.enqueue(() => this.restart(scenario.agentMode, scenario.turn));
    if (this.state !== "ready") throw new Error(this.error ?? "the demo agent did not start");
    const runner = new ScenarioRunner(scenario, this.stage(), {
      stepDelayMs: options.stepDelayMs,
      stepTimeoutMs: this.o.stepTimeoutMs ?? 30_000,
      onProgress: (p) => {
        if (this.runner === runner) {
          this.progress = p;
          this.changed();
        }
      },
    });
    this.runner = runner;
    this.progress = runner.current;
    void runner.run().then((end) => {
      if (end === "failed") this.o.log?.(`scenario ${id} failed: ${runner.current.error}`);
    });
  }

  /** Stops the scenario being played, if any (the demo keeps running). */
  stopScenario(): void {
    const runner = this.runner;
    if (!runner) return;
    this.runner = undefined;
    runner.stop();
    if (this.progress && !["finished", "failed"].includes(this.progress.phase)) {
      this.progress = { ...this.progress, phase: "stopped" };
      this.changed();
    }
  }

  /** Restarts the tap and agent (in `mode`, or the current one) with a fresh client and session. */
  async reset(mode?: AgentMode): Promise<void> {
    this.stopScenario();
    this.progress = null;
    await this.enqueue(() => this.restart(mode ?? this.mode, "normal"));
  }

  /** Stops everything the demo started. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopScenario();
    await this.enqueue(() => this.teardown());
    this.watch.close();
    clearTimeout(this.statusTimer);
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
    for (const id of this.armed.splice(0)) {
      await callHub(this.hubTarget, "DELETE", `/api/faults/${encodeURIComponent(id)}`).catch(() => undefined);
    }
  }

  private async restart(mode: AgentMode, turn: TurnLength): Promise<void> {
    await this.teardown();
    if (this.closed) return;
    this.mode = mode;
    this.turn = turn;
    this.state = "starting";
    this.error = undefined;
    this.labels = new Map();
    this.changed();
    const store = join(this.o.dataDir, `store-${mode}`);
    const turnMs = turn === "long" ? (this.o.longTurnMs ?? 120_000) : (this.o.turnMs ?? 1500);
    try {
      this.watch.follow((command) => command.includes(store));
      this.tap = await startDemoTap({
        cliPath: this.o.cliPath,
        store,
        mode,
        turnMs,
        runtimeDir: join(this.o.dataDir, "run"),
        tracePath: join(this.o.dataDir, `tap-${mode}.jsonl`),
        cwd: this.o.dataDir,
        onStderr: (line) => this.o.log?.(line),
      });
      await this.until(() => this.watch.traceId !== null, 10_000, "the demo tap did not attach to the hub");
      const client = new LiveDemoClient({
        url: this.tap.url,
        cwd: this.o.dataDir,
        attemptTimeoutMs: this.o.attemptTimeoutMs ?? 3_000,
        onChange: () => this.changed(),
      });
      this.client = client;
      await client.start();
      this.state = "ready";
    } catch (err) {
      this.state = "failed";
      this.error = err instanceof Error ? err.message : String(err);
      this.o.log?.(`demo: ${this.error}`);
    }
    this.changed();
  }

  /** Resolves when `holds()` is true (checked on every change), rejects after `ms`. */
  private until(holds: () => boolean, ms: number, why: string): Promise<void> {
    if (holds()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!holds()) return;
        this.factListeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.factListeners.delete(check);
        reject(new Error(why));
      }, ms);
      this.factListeners.add(check);
    });
  }

  private changed(): void {
    for (const l of [...this.factListeners]) l();
    if (this.statusTimer !== undefined || this.statusListeners.size === 0) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      const s = this.status();
      for (const l of this.statusListeners) l(s);
    }, STATUS_THROTTLE_MS);
  }

  private facts(): DemoFacts {
    const submissions: Record<string, SubmissionFacts> = {};
    for (const [label, s] of this.labels) {
      submissions[label] = {
        key: s.key,
        status: s.status,
        attempts: s.attempts.length,
        messageIds: s.messageIds,
      };
    }
    return {
      submissions,
      connections: this.client?.connectionCount ?? 0,
      deploys: this.client?.observer.observed.deploys.length ?? 0,
      faultsApplied: this.watch.faultsApplied,
      analyzed: this.watch.analyzed(),
    };
  }

  private stage(): ScenarioStage {
    return {
      act: (action) => this.act(action),
      facts: () => this.facts(),
      watch: (onChange) => {
        this.factListeners.add(onChange);
        return () => this.factListeners.delete(onChange);
      },
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
    const client = this.client;
    if (!client) throw new Error("the demo client is not running");
    switch (action.do) {
      case "send":
        this.labels.set(action.label, await client.send(action.text, action.withKey));
        return;
      case "arm": {
        const r = await callHub(this.hubTarget, "POST", "/api/faults", action.rule);
        if (r.status !== 201) throw new Error(`the hub refused the fault rule: ${String(r.body.error)}`);
        this.armed.push(String((r.body.rule as { id?: unknown } | undefined)?.id));
        return;
      }
      case "cancel": {
        const s = this.labels.get(action.label);
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
