/**
 * The demo agent behind the real tap: `proxy --listen ws://127.0.0.1:0 --ready-json -- demo-agent
 * ...`, spawned from the built CLI; its address comes from the tap's ready line on stdout. One tap process is one trace on the hub; every client connection gets its
 * own agent process (so a reconnect after a crash is a real restart from the stored session), and
 * the tap finds the hub through a rendezvous file written for it alone.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { AgentMode } from "../../shared/demo/scenario.js";
import { FRONT_TOKEN_ENV, newFrontToken } from "../platform/front-token.js";
import { readReadyLine } from "../tap/ready-line.js";

/** How to start a demo tap. */
export interface DemoTapOptions {
  /** The CLI bundle (`dist/cli.js`). */
  readonly cliPath: string;
  /** The agent's session store (one per mode). */
  readonly store: string;
  readonly mode: AgentMode;
  readonly turnMs: number;
  /** The tap's name (`proxy --name`): the scenario it plays, or the agent mode. */
  readonly name: string;
  /** The folder holding the hub's rendezvous file (`ACP_RETRY_INSPECTOR_RUNTIME_DIR` of the tap). */
  readonly runtimeDir: string;
  /** Where the tap writes its own copy of the trace. */
  readonly tracePath: string;
  readonly cwd: string;
  /** How long to wait for the tap to listen. */
  readonly startTimeoutMs?: number;
  /** Each line the tap or its agents write to stderr. */
  readonly onStderr?: (line: string) => void;
}

/** A running demo tap. */
export interface DemoTap {
  readonly pid: number;
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** The bearer token the tap's front requires (given to it through its environment, never argv). */
  readonly token: string;
  /** The agent command line, as the trace header records it. */
  readonly agentCommand: readonly string[];
  /** Resolves when the tap process exited. */
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL after a grace period; resolves once it exited. */
  stop(): Promise<void>;
}

/** Spawns the tap and resolves once it listens. */
export async function startDemoTap(o: DemoTapOptions): Promise<DemoTap> {
  const agentCommand = [
    process.execPath,
    o.cliPath,
    "demo-agent",
    "--store",
    o.store,
    "--mode",
    o.mode,
    "--turn-ms",
    String(o.turnMs),
  ];
  const token = newFrontToken();
  const child = spawn(
    process.execPath,
    [
      o.cliPath,
      "proxy",
      "--name",
      o.name,
      "--trace",
      o.tracePath,
      "--listen",
      "ws://127.0.0.1:0",
      "--ready-json",
      "--",
      ...agentCommand,
    ],
    {
      cwd: o.cwd,
      env: {
        ...process.env,
        ACP_RETRY_INSPECTOR_RUNTIME_DIR: o.runtimeDir,
        ELECTRON_RUN_AS_NODE: "1",
        [FRONT_TOKEN_ENV]: token,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  child.on("error", () => undefined);
  const lines = createInterface({ input: child.stderr });
  let seen = "";
  lines.on("line", (line) => {
    o.onStderr?.(line);
    if (seen.length < 4000) seen += `${line}\n`;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the demo tap did not start listening: ${seen.trim()}`)),
      o.startTimeoutMs ?? 15_000,
    );
    readReadyLine(child.stdout).then(
      (ready) => {
        clearTimeout(timer);
        if (ready.address) resolve(ready.address.ws);
        else reject(new Error("the demo tap is ready without an address"));
      },
      (err: Error) => {
        if (!child.stdout.readableEnded) {
          clearTimeout(timer);
          reject(err);
          return;
        }
        // its stdout ended: the tap is exiting, and its stderr says why
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`the demo tap exited: ${seen.trim()}`));
        });
      },
    );
  }).catch(async (err: Error) => {
    child.kill("SIGKILL");
    await exited;
    throw err;
  });
  return {
    pid: child.pid ?? 0,
    url,
    token,
    agentCommand,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
