/** Picks the `AgentLink` for a target: the one place that decides how a case reaches the agent. */

import { join } from "node:path";
import { TOOL_VERSION } from "../cli/version.js";
import type { AgentLink } from "./agent-link.js";
import type { ResolvedOptions } from "./conformance-options.js";
import { StdioLink } from "./stdio-link.js";
import { UrlLink } from "./url-link.js";

/** The tool name of the report (and of a stdio case trace whose connections left no header of their own). */
export const SUITE_TOOL = `acp-retry-inspector ${TOOL_VERSION} conformance`;

/** A fresh link for one case (or the probe) whose trace is `<tracesDir>/<name>.jsonl`. */
export function linkFor(options: ResolvedOptions, name: string): AgentLink {
  const traceFile = join(options.tracesDir, `${name}.jsonl`);
  const { agent } = options;
  const onStderr = options.onAgentStderr ? (line: string) => options.onAgentStderr?.(name, line) : undefined;
  if (agent.kind === "url") {
    // Through the real tap too: the case's own `proxy --listen --agent-url` writes its trace.
    return new UrlLink({
      url: agent.url,
      restartCommand: agent.restartCommand,
      traceFile,
      cliCommand: options.cliCommand,
      cwd: options.cwd,
      env: options.env,
      onStderr,
    });
  }
  return new StdioLink({
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
