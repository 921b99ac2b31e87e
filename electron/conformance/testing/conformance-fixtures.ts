/** Test support for the conformance suite's own tests: demo-agent commands, a restartable remote demo agent, stub agents. */

import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliPath } from "../../tools/testing/cli.js";
import type { ConformanceOptions } from "../conformance-options.js";

/** The stand-in agents (see the header of stub-agent.mjs). */
export const STUB_AGENT = fileURLToPath(new URL("./stub-agent.mjs", import.meta.url));
const RESTARTABLE_AGENT = fileURLToPath(new URL("./restartable-agent.mjs", import.meta.url));

/** A fresh temp folder. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `acp-conf-${prefix}-`));
}

/** The demo agent's stdio command in `mode`, with its own store and short turns. */
export function demoAgentCommand(mode: string, turnMs = 300): string[] {
  return [
    process.execPath,
    cliPath(),
    "demo-agent",
    "--store",
    tempDir("store"),
    "--turn-ms",
    String(turnMs),
    "--mode",
    mode,
  ];
}

/** Options for a stdio run against `command`, traces in a temp folder. */
export function stdioOptions(
  command: readonly string[],
  extra: Partial<ConformanceOptions> = {},
): ConformanceOptions {
  return {
    agent: { kind: "stdio", command },
    cliCommand: [process.execPath, cliPath()],
    tracesDir: tempDir("traces"),
    concurrency: 4,
    ...extra,
  };
}

/** A remote demo agent on loopback that a restart command can kill -9 and start again. */
export interface RemoteDemoAgent {
  readonly ws: string;
  readonly http: string;
  readonly restartCommand: string;
  stop(): Promise<void>;
}

/** Starts the demo agent behind the restart supervisor; resolves once it listens (bounded). */
export function startRemoteDemoAgent(mode: string, turnMs = 300): Promise<RemoteDemoAgent> {
  const child = spawn(
    process.execPath,
    [RESTARTABLE_AGENT, cliPath(), "--store", tempDir("store"), "--turn-ms", String(turnMs), "--mode", mode],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the remote demo agent did not start in 15 s")), 15_000);
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      clearTimeout(timer);
      const urls = JSON.parse(out.slice(0, nl)) as { ws: string; http: string; restartCommand: string };
      resolve({
        ...urls,
        async stop() {
          child.stdin.end();
          await exited;
        },
      });
    });
    child.once("exit", () => reject(new Error(`the remote demo agent exited: ${out}`)));
  });
}
