/**
 * The app's "Replay against…": runs `replay TRACE -- AGENT` for a UI, one at a time, with TRACE a
 * file of the hub's traces folder and AGENT one of the hub's configured agent choices (the command
 * line's or the local agents file's, exactly the conformance runner's; never a command from a UI).
 * The CLI is spawned as conformance spawns its children (the hub's node and CLI bundle, the
 * choice's folder and environment); its tap finds this hub through a rendezvous file written for
 * it alone, so the replay streams in like any tap and shows as a new live trace. `ReplaySlot` is
 * where the runner plugs into the hub (the `replay` operation).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { uiLink } from "../../shared/hub/hub-auth.js";
import type { TraceSummary } from "../../shared/hub/hub-event.js";
import type { AgentChoiceEntry, AgentChoices } from "../conformance/agent-choices.js";
import { RUNTIME_DIR_ENV } from "../hub-client/hub-paths.js";
import { writeRendezvous } from "../hub-client/rendezvous.js";

/** How long a replay's tap may take to attach to the hub before the UI is told it did not. */
export const REPLAY_ATTACH_MS = 20_000;
/** Characters of the replay's stderr kept for a refusal's words. */
const STDERR_KEPT = 4096;

/** What a started replay is: its run and the hub trace it streams into. */
export interface ReplayStarted {
  readonly ok: true;
  readonly runId: string;
  /** The hub's id of the replay's trace (its header's `replayOf` names the source). */
  readonly traceId: string;
}

/** Why a replay could not start. */
export interface ReplayRefused {
  readonly ok: false;
  readonly kind: "invalid" | "missing" | "conflict";
  readonly error: string;
}

/** A replay runner as the hub sees it. */
export interface ReplayControl {
  start(request: {
    readonly sourcePath: string;
    readonly agentId: string;
    readonly traces: () => Promise<readonly TraceSummary[]>;
  }): Promise<ReplayStarted | ReplayRefused>;
}

/** The hub's replay slot: empty until a runner is attached. */
export class ReplaySlot {
  private control: ReplayControl | undefined;

  /** Attaches a runner (replacing any other); returns a detach. */
  attach(control: ReplayControl): () => void {
    this.control = control;
    return () => {
      if (this.control === control) this.control = undefined;
    };
  }

  /** Starts a replay, or says why not. */
  start(request: Parameters<ReplayControl["start"]>[0]): Promise<ReplayStarted | ReplayRefused> {
    if (!this.control)
      return Promise.resolve({ ok: false, kind: "missing", error: "this hub runs no replays" });
    return this.control.start(request);
  }
}

/** The replay choices: the agents the hub was configured with (argv, agents file), not the built-in demo. */
export function replayChoices(choices: AgentChoices): readonly AgentChoiceEntry[] {
  return choices.entries.filter((e) => e.choice.source !== "built-in");
}

/** What a runner needs. */
export interface ReplayRunnerOptions {
  readonly choices: AgentChoices;
  /** How to run this tool's CLI, e.g. `[node, dist/cli.js]`. */
  readonly cliCommand: readonly string[];
  readonly tracesDir: string;
  readonly hub: { readonly hubId: string; readonly port: number; readonly token: string };
  readonly env?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}

/** One replay at a time, for the hub's UIs. */
export class ReplayRunner implements ReplayControl {
  private running: ChildProcess | undefined;
  private runs = 0;

  constructor(private readonly o: ReplayRunnerOptions) {}

  async start(request: Parameters<ReplayControl["start"]>[0]): Promise<ReplayStarted | ReplayRefused> {
    if (this.running) return { ok: false, kind: "conflict", error: "a replay is already going" };
    const entry = replayChoices(this.o.choices).find((e) => e.choice.id === request.agentId);
    if (!entry)
      return {
        ok: false,
        kind: "invalid",
        error: `no configured agent ${request.agentId} on this hub (agents come from serve -- AGENT or --agents FILE)`,
      };
    const source = resolve(request.sourcePath);
    const runId = `replay-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z")}-${++this.runs}`;
    const runDir = resolve(this.o.tracesDir, "replay", runId);
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    // A rendezvous of this hub for the replay's tap alone (the user's may name another hub, or none).
    const runtimeDir = mkdtempSync(join(tmpdir(), "acp-ri-replay-"));
    writeRendezvous(join(runtimeDir, "hub.json"), {
      v: 1,
      hubId: this.o.hub.hubId,
      pid: process.pid,
      port: this.o.hub.port,
      token: this.o.hub.token,
      url: uiLink(`http://127.0.0.1:${this.o.hub.port}`, this.o.hub.token),
      startedAt: new Date().toISOString(),
    });
    const agent = entry.agent(runDir);
    const target = agent.kind === "url" ? ["--url", agent.url] : ["--", ...agent.command];
    const before = new Set((await request.traces()).map((t) => t.id));
    const [node, ...cli] = this.o.cliCommand;
    const child = spawn(
      node as string,
      [...cli, "replay", source, "--trace", join(runDir, "replay.jsonl"), ...target],
      {
        cwd: entry.cwd ?? runDir,
        env: { ...process.env, ...this.o.env, ...entry.env, [RUNTIME_DIR_ENV]: runtimeDir },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    this.running = child;
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    const exited = new Promise<number | null>((done) => {
      child.once("error", (err) => {
        stderr += `\n${err.message}`;
      });
      child.once("close", (code) => {
        this.running = undefined;
        rmSync(runtimeDir, { recursive: true, force: true });
        this.o.log?.(`replay ${runId}: ended (${code === null ? "killed" : `exit status ${code}`})`);
        done(code);
      });
    });
    const found = await this.awaitTrace(request.traces, before, source, exited);
    if (found !== undefined) return { ok: true, runId, traceId: found };
    const code = await Promise.race([
      exited,
      new Promise<"running">((r) => setImmediate(() => r("running"))),
    ]);
    const last = lastLine(stderr);
    if (code === "running")
      return {
        ok: false,
        kind: "conflict",
        error: `the replay's tap did not reach the hub within ${REPLAY_ATTACH_MS} ms (it goes on; its trace is in ${runDir})`,
      };
    return {
      ok: false,
      kind: code === 2 ? "invalid" : "conflict",
      error: `the replay ended (exit status ${code})${last ? `: ${last}` : ""}`,
    };
  }

  /** Polls the hub's traces for the new one whose header says it replays `source`. */
  private async awaitTrace(
    traces: () => Promise<readonly TraceSummary[]>,
    before: ReadonlySet<string>,
    source: string,
    exited: Promise<unknown>,
  ): Promise<string | undefined> {
    let done = false;
    void exited.then(() => {
      done = true;
    });
    const until = Date.now() + REPLAY_ATTACH_MS;
    for (;;) {
      const ended = done;
      const hit = (await traces()).find((t) => !before.has(t.id) && t.header?.replayOf?.trace === source);
      if (hit) return hit.id;
      if (ended || Date.now() > until) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Stops a running replay (hub shutdown). */
  async close(): Promise<void> {
    const child = this.running;
    if (!child) return;
    const gone = new Promise<void>((r) => child.once("close", () => r()));
    child.kill("SIGTERM");
    await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
  }
}

/** The last non-empty line of the replay's stderr, without the tool's prefix. */
function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return (lines[lines.length - 1] ?? "").replace(/^acp-retry-inspector( replay)?: /, "");
}
