/**
 * The real tap in front of a remote agent, for one case: `proxy --listen ws://127.0.0.1:0
 * --agent-url URL --trace FILE --no-hub --ready-json`, started with the suite's `cliCommand`. It
 * records every connection of the case (numbered in the order the suite opens them) into the case's
 * trace and prints where it listens as its ready line on stdout (its stderr is for people: passed on,
 * never parsed); SIGTERM ends its connections and completes the trace. The
 * front requires a bearer token: the suite makes one per front and gives it through the front's
 * environment (`ACP_RETRY_INSPECTOR_LISTEN_TOKEN`, never argv), and its connections send it.
 */

import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { LineCutter } from "../../shared/protocol/line-cutter.js";
import { FRONT_TOKEN_ENV, newFrontToken } from "../platform/front-token.js";
import { readReadyLine } from "../tap/ready-line.js";
import { settlesWithin } from "./settles-within.js";

/** What a front process needs. */
export interface FrontProcessOptions {
  /** How to run this tool's CLI, e.g. `[process.execPath, "/path/to/cli.js"]`. */
  readonly cliCommand: readonly string[];
  /** The remote agent: `ws(s)://` or `http(s)://`. */
  readonly agentUrl?: string;
  /** Instead of `agentUrl`: the agent command the front spawns per connection (the stress mode). */
  readonly agentCommand?: readonly string[];
  /** More `proxy` arguments, e.g. `--fault` rules (the stress mode). */
  readonly extraArgs?: readonly string[];
  /** The case trace the front writes. */
  readonly traceFile: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Receives the front's other stderr lines, e.g. for `--verbose`. */
  readonly onStderr?: (line: string) => void;
}

/** Where a started front listens, and the token its clients send. */
export interface FrontUrls {
  readonly ws: string;
  readonly http: string;
  readonly token: string;
}

/** How long the front may take to print its ready line (a loaded machine starts node slowly). */
export const FRONT_START_MS = 15_000;
const TERM_GRACE_MS = 5_000;
const KILL_GRACE_MS = 2_000;

/** One `proxy --listen --agent-url` process; spawned at construction. */
export class FrontProcess {
  /** Resolves with the front's URLs once it listens; rejects with a one-line reason when it cannot start. */
  readonly ready: Promise<FrontUrls>;
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly exited: Promise<void>;
  private closed = false;

  constructor(options: FrontProcessOptions) {
    const { cliCommand, agentUrl, agentCommand, traceFile, cwd, env } = options;
    const [node, ...cli] = cliCommand;
    const upstream = agentUrl !== undefined ? ["--agent-url", agentUrl] : [];
    const args = [...cli, "proxy", "--listen", "ws://127.0.0.1:0", "--ready-json", ...upstream];
    const own = [...(options.extraArgs ?? []), ...(agentCommand ? ["--", ...agentCommand] : [])];
    const token = newFrontToken();
    this.child = spawn(node as string, [...args, "--trace", traceFile, "--no-hub", ...own], {
      cwd,
      env: { ...env, [FRONT_TOKEN_ENV]: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const child = this.child;
    let failure: string | undefined;
    child.on("error", (err) => {
      failure = err.message;
    });
    this.exited = new Promise<void>((resolve) =>
      child.once("close", () => {
        this.closed = true;
        resolve();
      }),
    );
    this.ready = new Promise<FrontUrls>((resolve, reject) => {
      const what = "the tap (proxy --listen --agent-url)";
      let urls: FrontUrls | undefined;
      let last = "";
      const stderrLines = new LineCutter();
      const timer = setTimeout(() => {
        reject(new Error(`${what} did not start listening within ${FRONT_START_MS} ms`));
        void this.stop();
      }, FRONT_START_MS);
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        for (const line of stderrLines.push(chunk)) {
          if (line.trim() !== "") last = line.trim();
          options.onStderr?.(line);
        }
      });
      readReadyLine(child.stdout).then(
        (ready) => {
          clearTimeout(timer);
          if (ready.address === null) {
            reject(new Error(`${what} is ready without an address`));
            return;
          }
          urls = { ws: ready.address.ws, http: ready.address.http, token };
          resolve(urls);
        },
        (err: Error) => {
          // An ended stdout is the exit below, with its reason; anything else is said as is.
          if (child.stdout.readableEnded) return;
          clearTimeout(timer);
          reject(new Error(`${what}: ${err.message}`));
          void this.stop();
        },
      );
      void this.exited.then(() => {
        clearTimeout(timer);
        if (urls !== undefined) return;
        const why = failure ?? last.replace(/^acp-retry-inspector: /, "");
        const status = child.signalCode ?? `exit ${child.exitCode}`;
        reject(new Error(`${what} ended before listening (${status})${why ? `: ${why}` : ""}`));
      });
    });
    this.ready.catch(() => undefined);
  }

  /** Stops the front (SIGTERM, then SIGKILL; bounded); its trace is complete once this resolves. */
  async stop(): Promise<void> {
    const { child } = this;
    if (this.closed) return;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    if (await settlesWithin(this.exited, TERM_GRACE_MS)) return;
    child.kill("SIGKILL");
    await settlesWithin(this.exited, KILL_GRACE_MS);
  }
}
