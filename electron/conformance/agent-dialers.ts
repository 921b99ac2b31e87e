/** Picks the `AgentDialer` for a target: the one place that decides how a case reaches the agent. */

import { join } from "node:path";
import { TOOL_VERSION } from "../platform/version.js";
import type { AgentDialer } from "./agent-dialer.js";
import type { ResolvedOptions } from "./conformance-options.js";
import { StdioDialer } from "./stdio-dialer.js";
import { UrlDialer } from "./url-dialer.js";

/** The tool name of the report (and of a stdio case trace whose connections left no header of their own). */
export const SUITE_TOOL = `acp-retry-inspector ${TOOL_VERSION} conformance`;

/** A fresh dialer for one case (or the probe) whose trace is `<tracesDir>/<name>.jsonl`. */
export function dialerFor(options: ResolvedOptions, name: string): AgentDialer {
  const traceFile = join(options.tracesDir, `${name}.jsonl`);
  const { agent } = options;
  const onStderr = options.onAgentStderr ? (line: string) => options.onAgentStderr?.(name, line) : undefined;
  if (agent.kind === "url") {
    // Through the real tap too: the case's own `proxy --listen --agent-url` writes its trace.
    return new UrlDialer({
      url: agent.url,
      restartCommand: agent.restartCommand,
      traceFile,
      cliCommand: options.cliCommand,
      cwd: options.cwd,
      env: options.env,
      onStderr,
    });
  }
  return new StdioDialer({
    cliCommand: options.cliCommand,
    agentCommand: agent.command,
    cwd: options.cwd,
    env: options.env,
    connDir: join(options.tracesDir, name),
    traceFile,
    tool: SUITE_TOOL,
    onStderr,
  });
}
