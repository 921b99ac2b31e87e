import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import type { TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import type { ClientReport } from "../../peers/client/demo-client.js";
import { cliPath } from "../../tools/testing/cli.js";
import { readReadyLine } from "../ready-line.js";
import { within } from "./proxy-run.js";

const run = promisify(execFile);

/** A scratch folder per test, with its own hub runtime dir (no test sees another's hub). */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), "acp-ri-e2e-"));
  private readonly children: ChildProcess[] = [];
  /** The environment every process of this test runs with. */
  readonly env: NodeJS.ProcessEnv = {
    ...process.env,
    ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(this.dir, "run"),
  };

  path(name: string): string {
    return join(this.dir, name);
  }

  /** Spawns the CLI; the child is killed at `cleanup` if still running. */
  spawnCli(args: readonly string[]): ChildProcess {
    const child = spawn(process.execPath, [cliPath(), ...args], {
      env: this.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.children.push(child);
    return child;
  }

  /** Kills what is left and removes the folder. */
  cleanup(): void {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The demo-agent command line (through the built CLI) with a store in `scratch`. */
export function demoAgent(scratch: Scratch, ...extra: string[]): string[] {
  return [process.execPath, cliPath(), "demo-agent", "--store", scratch.path("store"), ...extra];
}

/**
 * A tap's command line through the built CLI: `proxy --no-hub --trace TRACE OPTIONS... -- AGENT...`
 * (the agent is usually `demoAgent(scratch, ...)`).
 */
export function tapped(trace: string, options: readonly string[], agent: readonly string[]): string[] {
  return [process.execPath, cliPath(), "proxy", "--no-hub", "--trace", trace, ...options, "--", ...agent];
}

/** Runs `demo-client --json` to its end with one prompt; resolves with its report. */
export async function demoClient(scratch: Scratch, args: readonly string[]): Promise<ClientReport> {
  const { stdout } = await run(
    process.execPath,
    [
      cliPath(),
      "demo-client",
      "--json",
      "--quiet",
      "--pending",
      scratch.path("pending.json"),
      "--prompt",
      "deploy it",
      ...args,
    ],
    { timeout: 60_000, env: scratch.env },
  );
  return JSON.parse(stdout) as ClientReport;
}

/** Runs `analyze --json` on a trace file; resolves with the timeline model. */
export async function analyze(scratch: Scratch, trace: string): Promise<TimelineModel> {
  const r = await run(process.execPath, [cliPath(), "analyze", "--json", trace], {
    timeout: 30_000,
    env: scratch.env,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  return JSON.parse(r.stdout) as TimelineModel;
}

/** Waits until `child` printed a line matching `pattern` on `stream`; resolves with the match. */
export function printed(
  child: ChildProcess,
  stream: "stdout" | "stderr",
  pattern: RegExp,
  what: string,
): Promise<RegExpMatchArray> {
  let text = "";
  return within(
    new Promise<RegExpMatchArray>((resolve, reject) => {
      child[stream]?.on("data", (d: Buffer) => {
        text += d.toString("utf8");
        const m = text.match(pattern);
        if (m) resolve(m);
      });
      child.on("exit", (code) => reject(new Error(`exited (${code}) before printing ${what}: ${text}`)));
    }),
    15_000,
    what,
  );
}

/** Resolves when `child` exited. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** A running `proxy --listen` front: its URLs and what a client needs to be let in. */
export interface StartedFront {
  readonly child: ChildProcess;
  readonly wsUrl: string;
  readonly httpUrl: string;
  /** The token it wrote to its token file (empty with `--no-auth`). */
  readonly token: string;
  /** Where it wrote the token: `<trace>.token` (from its ready line). */
  readonly tokenFile: string;
  /** `{ Authorization: "Bearer <token>" }` (empty with `--no-auth`). */
  readonly headers: Record<string, string>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
}

/** Starts `proxy --listen ws://127.0.0.1:0 --ready-json ...`; resolves with its URLs and token (from its token file) once it listens. */
export async function startFront(
  scratch: Scratch,
  proxyArgs: readonly string[],
  agent: readonly string[],
): Promise<StartedFront> {
  const child = scratch.spawnCli([
    "proxy",
    "--listen",
    "ws://127.0.0.1:0",
    "--ready-json",
    ...proxyArgs,
    ...(agent.length ? ["--", ...agent] : []),
  ]);
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const ready = await within(
    readReadyLine(child.stdout as Readable).catch((err: Error) => {
      throw new Error(`${err.message}: ${stderr}`);
    }),
    15_000,
    "the front's ready line",
  );
  if (ready.address === null) throw new Error("the front is ready without an address");
  const token = ready.tokenFile === null ? "" : readFileSync(ready.tokenFile, "utf8").trim();
  const trace = proxyArgs[proxyArgs.indexOf("--trace") + 1] ?? "";
  return {
    child,
    wsUrl: ready.address.ws,
    httpUrl: ready.address.http,
    token,
    tokenFile: ready.tokenFile ?? `${trace}.token`,
    headers: token === "" ? {} : { Authorization: `Bearer ${token}` },
    stderr: () => stderr,
  };
}

/** Stops a front with SIGTERM and waits for it (its trace is then complete). */
export async function stopFront(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await within(exited(child), 15_000, "the front to exit");
}

/** Starts `serve` (a hub); resolves with its UI link (the token in its fragment). */
export async function startHub(
  scratch: Scratch,
  tracesDir: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = scratch.spawnCli(["serve", "--traces-dir", tracesDir]);
  const m = await printed(child, "stdout", /^(http:\/\/\S+)\n/, "the hub's URL");
  return { child, url: m[1] as string };
}

/** Runs the `fault` command against the hub of `scratch`; resolves with its stdout. */
export async function faultCli(scratch: Scratch, args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [cliPath(), "fault", ...args], {
    timeout: 15_000,
    env: scratch.env,
  });
  return stdout;
}
