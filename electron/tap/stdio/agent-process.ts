import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** How starting the agent went. */
export type AgentStart =
  | { readonly ok: true; readonly pid: number }
  | { readonly ok: false; readonly errno: string; readonly message: string };

/** How the agent ended. */
export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The agent child process, with its three stdio streams as pipes. */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves once the process runs, or with the reason it could not be started (never rejects). */
  readonly started: Promise<AgentStart>;
  /** Resolves when the process has exited (never, if it did not start). */
  readonly exited: Promise<AgentExit>;

  constructor(
    readonly command: readonly string[],
    options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
  ) {
    const [file, ...args] = command;
    this.child = spawn(file ?? "", args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.started = new Promise((resolve) => {
      this.child.once("spawn", () => resolve({ ok: true, pid: this.child.pid ?? -1 }));
      this.child.once("error", (err: NodeJS.ErrnoException) => {
        resolve({ ok: false, errno: err.code ?? "UNKNOWN", message: err.message });
      });
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    // A child that died early makes writes to its stdin fail with EPIPE; the pump reports that.
    this.child.stdin.on("error", () => {});
  }

  /** Sends a signal to the agent; false when it is already gone. */
  kill(signal: NodeJS.Signals): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.kill(signal);
  }
}

/** The conventional shell exit status for a command that could not be started: 127 not found, 126 not executable. */
export function spawnFailureStatus(errno: string): number {
  if (errno === "ENOENT") return 127;
  if (errno === "EACCES" || errno === "EPERM" || errno === "ENOEXEC") return 126;
  return 1;
}
