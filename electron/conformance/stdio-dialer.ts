/**
 * Stdio: every connection is `acp-retry-inspector proxy --no-hub --trace <case>/conn-N.jsonl -- <agent>`,
 * spawned with the same working directory and environment, so each connection is recorded by the
 * real tap. `--no-hub`: a running hub's fault rules must not touch the suite's sessions, and its
 * UIs get each case's whole trace at the end instead of one live trace per connection. A crash is SIGKILL to the agent process (its pid comes from the tap's `agent-spawn`
 * record); the next connection starts the command again.
 */

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { LineCutter } from "../../shared/protocol/line-cutter.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../shared/trace/record.js";
import { nodeNdJsonStream } from "../peers/rpc/ndjson-stream.js";
import { PRIVATE_DIR_MODE } from "../trace/private-files.js";
import { readTrace } from "../trace/trace-reader.js";
import type { AgentDialer, CaseConnection } from "./agent-dialer.js";
import { settlesWithin } from "./settles-within.js";
import { type ConnectionEnd, mergeConnectionTraces } from "./trace-merge.js";

/** What a stdio dialer needs. */
export interface StdioDialerOptions {
  /** How to run this tool's CLI, e.g. `[process.execPath, "/path/to/cli.js"]`. */
  readonly cliCommand: readonly string[];
  readonly agentCommand: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Folder for the per-connection traces. */
  readonly connDir: string;
  /** The case trace (all connections). */
  readonly traceFile: string;
  readonly tool: string;
  /** Receives the agent's stderr lines (through the tap), e.g. for `--verbose`. */
  readonly onStderr?: (line: string) => void;
}

interface StdioConnection {
  readonly child: ChildProcessWithoutNullStreams;
  readonly traceFile: string;
  readonly exited: Promise<void>;
  agentPid?: number;
  /** What the suite did to end it, for the joined trace (see `ConnectionEnd`). */
  readonly end: ConnectionEnd;
}

const CLOSE_GRACE_MS = 2000;

/** A stdio `AgentDialer` through the tap. */
export class StdioDialer implements AgentDialer {
  readonly transport = "stdio";
  private readonly connections: StdioConnection[] = [];

  constructor(private readonly options: StdioDialerOptions) {
    mkdirSync(options.connDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  async open(conn: number): Promise<CaseConnection> {
    const { cliCommand, agentCommand, cwd, env, connDir } = this.options;
    const traceFile = join(connDir, `conn-${conn}.jsonl`);
    const [node, ...cli] = cliCommand;
    const child = spawn(
      node as string,
      [...cli, "proxy", "--no-hub", "--trace", traceFile, "--", ...agentCommand],
      {
        cwd,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const end: ConnectionEnd = {};
    child.stdin.on("error", () => undefined);
    // Whoever ends the agent's input (the suite's client, or the cleanup), from then on it is
    // teardown: the time is taken when `end` is called, before the tap can see the end of its input.
    const endInput = child.stdin.end.bind(child.stdin) as (...args: unknown[]) => unknown;
    child.stdin.end = ((...args: unknown[]) => {
      end.inputClosedAt ??= Date.now();
      return endInput(...args);
    }) as typeof child.stdin.end;
    child.on("error", () => undefined);
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.stderr.setEncoding("utf8");
    const stderrLines = new LineCutter();
    child.stderr.on("data", (chunk: string) => {
      for (const line of stderrLines.push(chunk)) this.options.onStderr?.(line);
    });
    const connection: StdioConnection = { child, traceFile, exited, end };
    this.connections.push(connection);
    return {
      stream: nodeNdJsonStream(child.stdin, child.stdout),
      close: () => this.closeOne(connection),
    };
  }

  async restart(timeoutMs: number): Promise<string> {
    const last = this.connections.at(-1);
    if (!last) return "no agent was running";
    const pid = await this.agentPid(last, timeoutMs);
    if (pid === undefined) {
      last.end.killedForRestartAt = Date.now();
      last.child.kill("SIGKILL");
      await settlesWithin(last.exited, timeoutMs);
      return "killed the tap (the agent's pid was not in its trace)";
    }
    last.end.killedForRestartAt = Date.now();
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone: the restart still happens on the next connection.
    }
    await settlesWithin(last.exited, timeoutMs);
    return `killed agent pid ${pid} with SIGKILL`;
  }

  async finish(): Promise<string | undefined> {
    await Promise.all(this.connections.map((c) => this.closeOne(c)));
    const { traceFile, agentCommand, cwd, tool } = this.options;
    await mergeConnectionTraces(
      this.connections.map((c) => ({ file: c.traceFile, end: c.end })),
      traceFile,
      {
        format: TRACE_FORMAT,
        version: TRACE_FORMAT_VERSION,
        tool,
        startedAt: new Date().toISOString(),
        agent: { command: agentCommand, cwd },
        transport: "stdio",
      },
    );
    return traceFile;
  }

  /**
   * Closes the agent's stdin and gives it `CLOSE_GRACE_MS` to exit on its own; then SIGTERM (the
   * tap forwards it), then SIGKILL to tap and agent. What it had to do goes into the joined trace.
   */
  private async closeOne(c: StdioConnection): Promise<void> {
    if (c.child.exitCode !== null || c.child.signalCode !== null) return c.exited;
    c.end.inputClosedAt ??= Date.now();
    c.child.stdin.end();
    if (await settlesWithin(c.exited, CLOSE_GRACE_MS)) return;
    c.end.signalled = { signal: "SIGTERM", at: Date.now() };
    c.child.kill("SIGTERM");
    if (await settlesWithin(c.exited, CLOSE_GRACE_MS)) return;
    c.end.signalled = { signal: "SIGKILL", at: Date.now() };
    const pid = await this.agentPid(c, 200);
    if (pid !== undefined) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    c.child.kill("SIGKILL");
    await settlesWithin(c.exited, CLOSE_GRACE_MS);
  }

  /** The agent's pid from the connection's trace (`agent-spawn`); the tap flushes within 5 ms. */
  private async agentPid(c: StdioConnection, timeoutMs: number): Promise<number | undefined> {
    const until = Date.now() + timeoutMs;
    while (c.agentPid === undefined) {
      try {
        for await (const ev of readTrace(c.traceFile)) {
          if (ev.kind === "record" && ev.record.type === "agent-spawn") {
            c.agentPid = ev.record.pid;
            break;
          }
        }
      } catch {
        // Not written yet.
      }
      if (c.agentPid !== undefined || Date.now() >= until) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return c.agentPid;
  }
}
