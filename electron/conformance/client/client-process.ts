/**
 * Runs the client under test once for one run of the client suite: writes the run's schedule,
 * spawns the client from argv (no shell) with `{agent}` filled in, in its own fresh per-user
 * folders and working directory, waits for it to exit (bounded:
 * SIGTERM, then SIGKILL to its whole process group), waits for the taps it started to finish their
 * traces, and joins them into the run's trace (connections numbered in the order the client opened
 * them).
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { substituteAgent } from "../../../shared/conformance/client/agent-placeholder.js";
import type { ClientRunDefinition } from "../../../shared/conformance/client/client-case-catalogue.js";
import { LineCutter } from "../../../shared/protocol/line-cutter.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../../shared/trace/record.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../trace/private-files.js";
import { settlesWithin } from "../settles-within.js";
import { mergeConnectionTraces } from "../trace-merge.js";
import { claimFile, type RunSchedule } from "./run-schedule.js";

/** What one run needs. */
export interface ClientRunOptions {
  readonly clientCommand: readonly string[];
  /** How to run this tool's CLI (for `conformance-agent`). */
  readonly cliCommand: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly tracesDir: string;
  readonly agentArgs: readonly string[];
  /** How long the client may run before it is stopped, ms. */
  readonly limitMs: number;
  /** The attempt timeout asked of the client, for `{timeoutMs}` in its command. */
  readonly clientTimeoutMs?: number;
  readonly tool: string;
  /** The client's stdout and stderr lines (for `--verbose`). */
  readonly onOutput?: (line: string) => void;
}

/** What one run left. */
export interface ClientRunResult {
  readonly traceFile: string;
  /** Connections the client opened to the suite's agent. */
  readonly connections: number;
  /** The spawn error (e.g. ENOENT), when the client could not be started. */
  readonly spawnError?: string;
  /** How the client ended: `exited with code 0`, `was killed by SIGKILL`, ... */
  readonly exit: string;
  /** The client did not end within the limit and was stopped. */
  readonly stopped: boolean;
  /** The client's first stderr lines (at most 10). */
  readonly stderr: readonly string[];
  readonly durationMs: number;
}

const GRACE_MS = 2000;
const STDERR_LINES = 10;

function lines(onLine: (line: string) => void): (chunk: string) => void {
  const cutter = new LineCutter();
  return (chunk) => {
    for (const line of cutter.push(chunk)) onLine(line);
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

/**
 * The run's own per-user folders and working directory: HOME, the XDG folders (and their Windows
 * and macOS counterparts, which live under HOME or are named by APPDATA/LOCALAPPDATA) under
 * `<run>/home`, the working directory `<run>/work`. Whatever the client keeps per user (a pending
 * file, a session cache) starts empty in every run, so one run never leaks into the next, as it
 * would between two CI jobs on one runner.
 */
export function ownUserFolders(runDir: string): { cwd: string; env: Record<string, string> } {
  const home = join(runDir, "home");
  const cwd = join(runDir, "work");
  const env: Record<string, string> = {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    APPDATA: join(home, "AppData", "Roaming"),
    LOCALAPPDATA: join(home, "AppData", "Local"),
  };
  for (const dir of [cwd, ...Object.values(env)]) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return { cwd, env };
}

/** The connections the client opened: `conn-1.claim`, `conn-2.claim`, ... and the pids serving them. */
function claims(runDir: string): { conn: number; pid: number }[] {
  const out: { conn: number; pid: number }[] = [];
  for (let conn = 1; existsSync(claimFile(runDir, conn)); conn++) {
    const pid = Number.parseInt(readFileSync(claimFile(runDir, conn), "utf8"), 10);
    out.push({ conn, pid: Number.isInteger(pid) ? pid : -1 });
  }
  return out;
}

/** Runs the client once for `run`; never throws for the client's own failures. */
export async function runClientOnce(
  run: ClientRunDefinition,
  options: ClientRunOptions,
): Promise<ClientRunResult> {
  const started = Date.now();
  const runDir = join(options.tracesDir, run.name);
  mkdirSync(runDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const schedule: RunSchedule = {
    faults: [...run.faults],
    agentArgs: options.agentArgs,
  };
  writeFileSync(join(runDir, "schedule.json"), `${JSON.stringify(schedule, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
    flag: "wx",
  });
  const agentWords = [...options.cliCommand, "conformance-agent", runDir];
  const [given, ...args] = substituteAgent(
    options.clientCommand,
    agentWords,
    runDir,
    options.clientTimeoutMs,
  );
  // A relative program path names a file in the folder the suite was started from (`--cwd`).
  const file = given?.includes("/") ? resolve(options.cwd, given) : given;
  const own = ownUserFolders(runDir);
  const stderr: string[] = [];
  let spawnError: string | undefined;
  let exit = "did not start";
  let stopped = false;
  const child = spawn(file as string, args, {
    cwd: own.cwd,
    env: { ...options.env, ...own.env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a client that hangs is stopped with every agent it started.
    detached: true,
  });
  const ended = new Promise<void>((resolve) => {
    child.once("error", (err: NodeJS.ErrnoException) => {
      spawnError = `cannot start client '${file}': ${err.code === "ENOENT" ? "command not found (ENOENT)" : err.message}`;
      resolve();
    });
    child.once("close", (code, signal) => {
      exit = signal ? `was killed by ${signal}` : `exited with code ${String(code)}`;
      resolve();
    });
  });
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stdout?.on(
    "data",
    lines((line) => options.onOutput?.(line)),
  );
  child.stderr?.on(
    "data",
    lines((line) => {
      if (stderr.length < STDERR_LINES && line.trim() !== "") stderr.push(line);
      options.onOutput?.(line);
    }),
  );
  if (!(await settlesWithin(ended, options.limitMs))) {
    stopped = true;
    killGroup(child.pid, "SIGTERM");
    if (!(await settlesWithin(ended, GRACE_MS))) {
      killGroup(child.pid, "SIGKILL");
      await settlesWithin(ended, GRACE_MS);
    }
  }
  // The taps end when the client closes their input; give them time to finish their traces.
  const until = Date.now() + 5000;
  while (claims(runDir).some((c) => c.pid > 0 && alive(c.pid)) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 25));
  killGroup(child.pid, "SIGKILL");
  const opened = claims(runDir);
  const traceFile = join(options.tracesDir, `${run.name}.jsonl`);
  await mergeConnectionTraces(
    opened.map((c) => join(runDir, `conn-${c.conn}.jsonl`)),
    traceFile,
    {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool: options.tool,
      startedAt: new Date(started).toISOString(),
      agent: { command: agentWords, cwd: options.cwd },
      transport: "stdio",
    },
  );
  return {
    traceFile,
    connections: opened.length,
    ...(spawnError && { spawnError }),
    exit,
    stopped,
    stderr,
    durationMs: Date.now() - started,
  };
}
