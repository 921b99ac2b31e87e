import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { cliPath } from "../../tools/testing/cli.js";
import { readTrace, type TraceReadEvent } from "../../trace/trace-reader.js";

/** The argv-driven stand-in agent (see its header for the modes). */
export const SCRIPTED_AGENT = fileURLToPath(new URL("./scripted-agent.mjs", import.meta.url));

/** A running `acp-retry-inspector proxy` child and what it has printed so far. */
export interface ProxyRun {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the proxy exited and its pipes closed. */
  readonly done: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: Buffer;
    stderr: string;
  }>;
  /** Resolves once the proxy's stdout contains `text`. */
  stdoutContains(text: string): Promise<void>;
}

/** Spawns the built CLI as `proxy <proxyArgs> -- <agentCommand>`. */
export function startProxy(
  proxyArgs: readonly string[],
  agentCommand: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ProxyRun {
  const child = spawn(process.execPath, [cliPath(), "proxy", ...proxyArgs, "--", ...agentCommand], {
    stdio: ["pipe", "pipe", "pipe"],
    env,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const watchers: { text: string; resolve: () => void }[] = [];
  child.stdout.on("data", (c: Buffer) => {
    out.push(c);
    if (watchers.length === 0) return;
    const all = Buffer.concat(out).toString("utf8");
    for (const w of watchers.filter((w) => all.includes(w.text))) {
      watchers.splice(watchers.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.on("error", () => {});
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: Buffer;
    stderr: string;
  }>((resolve) =>
    child.on("close", (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
    ),
  );
  return {
    child,
    done,
    stdoutContains: (text) =>
      new Promise((resolve) => {
        if (Buffer.concat(out).toString("utf8").includes(text)) resolve();
        else watchers.push({ text, resolve });
      }),
  };
}

/** The scripted agent's command line for `mode` (see scripted-agent.mjs). */
export function scriptedAgent(...mode: string[]): string[] {
  return [process.execPath, SCRIPTED_AGENT, ...mode];
}

/** Rejects after `ms` so no wait in a test can hang. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every event of a trace file, in order. */
export async function traceEvents(path: string): Promise<TraceReadEvent[]> {
  const events: TraceReadEvent[] = [];
  for await (const ev of readTrace(path)) events.push(ev);
  return events;
}

/** The records of a trace file, in order. */
export async function traceRecords(path: string): Promise<TraceRecord[]> {
  return (await traceEvents(path)).flatMap((e) => (e.kind === "record" ? [e.record] : []));
}
