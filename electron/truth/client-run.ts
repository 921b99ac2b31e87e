/**
 * Runs the reference client, `demo-client`, as its own process against a tap's remote front: its
 * submissions are written to its pending file first (as a previous run would have left them, so
 * the keys are known before it starts and the tap's fault rules can name them), then it delivers
 * them and prints its `--json` report. Bounded: killed at `deadlineMs`.
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { FRONT_TOKEN_ENV } from "../platform/front-token.js";

/** One prompt of a client run. */
export interface ClientPrompt {
  readonly text: string;
  /** Its key, or null for an unkeyed client. */
  readonly key: string | null;
}

/** What a client run needs. */
export interface ClientRunOptions {
  readonly cliCommand: readonly string[];
  readonly url: string;
  readonly token: string;
  readonly pendingFile: string;
  readonly prompts: readonly ClientPrompt[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The client's `--timeout`, ms. */
  readonly attemptTimeoutMs: number;
  /** The client is killed after this long. */
  readonly deadlineMs: number;
}

/** How the client run ended. */
export interface ClientRunResult {
  readonly stdout: string;
  readonly code: number | null;
  /** True when it was killed at the deadline. */
  readonly killed: boolean;
}

/** Writes the client's pending file with `prompts` pending, in order, submitted now. */
export function seedPendingFile(path: string, prompts: readonly ClientPrompt[], now = Date.now()): void {
  const submissions = prompts.map((p, i) => ({
    index: i + 1,
    key: p.key,
    prompt: [{ type: "text", text: p.text }],
    submittedAt: now,
    status: "pending",
    messageIds: [],
    attempts: [],
  }));
  writeFileSync(path, `${JSON.stringify({ submissions })}\n`, { mode: 0o600 });
}

/** Runs `demo-client --url URL --pending FILE --json` to its end or the deadline; never throws. */
export function runClient(options: ClientRunOptions): Promise<ClientRunResult> {
  seedPendingFile(options.pendingFile, options.prompts);
  const [node, ...cli] = options.cliCommand;
  const keyed = options.prompts.every((p) => p.key !== null);
  const args = [
    ...cli,
    "demo-client",
    "--url",
    options.url,
    "--pending",
    options.pendingFile,
    "--timeout",
    String(options.attemptTimeoutMs),
    // Setting up waits for an agent process to start: on a loaded machine far longer than an answer.
    "--setup-timeout",
    String(Math.max(options.attemptTimeoutMs, options.deadlineMs)),
    "--retries",
    "8",
    "--no-wait-idle",
    "--cwd",
    options.cwd,
    "--json",
    "--quiet",
    ...(keyed ? [] : ["--no-key"]),
  ];
  return new Promise((resolve) => {
    const child = spawn(node as string, args, {
      cwd: options.cwd,
      env: { ...options.env, [FRONT_TOKEN_ENV]: options.token },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    let killed = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (c: string) => {
      stdout += c;
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, options.deadlineMs);
    child.on("error", () => undefined);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout, code, killed });
    });
  });
}
