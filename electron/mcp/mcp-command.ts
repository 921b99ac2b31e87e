/**
 * `acp-retry-inspector mcp [TRACE...]`: starts the read-only MCP server (mcp-server.ts) on stdio.
 * The server is its own bundle (`mcp.js` beside `cli.js`), loaded only here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type CliCommand, CliError } from "../cli/command.js";
import { TOOL_VERSION } from "../platform/version.js";
import { defaultTraceDir } from "../trace/default-trace-path.js";
import type { McpServerOptions } from "./mcp-server.js";

const HELP = `Usage: acp-retry-inspector mcp [TRACE...]

Runs a read-only MCP server on stdin/stdout, so a coding agent can help triage recorded sessions.
It reads the traces in your traces folder (${defaultTraceDir()}) and the TRACE files named here,
nothing else, and writes nothing. Everything it returns is redacted as export redacts it
(docs/redaction.md): prompts, file contents and credentials become placeholders that state their length.

Tools:
  list_traces       the traces it can read (name, size, time)
  summarize_trace   header, counts, RFD verdicts with their rows and frame seqs, first submissions
  get_submission    one submission by row id or idempotency key: attempts, outcomes, frames
  search            Timeline rows matching a query in the app's filter syntax (method:, key:, verdict:, ...)
  list_violations   frames that break the official ACP schema (v1/v2): path and what the schema says
  diff_traces       two traces compared as diff compares them, with the gate's verdict (worse/same)

Add it to Claude Code:
  claude mcp add acp-retry-inspector -- npx acp-retry-inspector mcp
Add it to Zed (settings.json):
  "context_servers": { "acp-retry-inspector": { "source": "custom", "command": "npx",
                       "args": ["acp-retry-inspector", "mcp"] } }

More: docs/mcp.md`;

/** The bundled server beside this bundle (`dist/mcp.js`). */
function serverBundle(): string {
  const path = fileURLToPath(new URL("./mcp.js", import.meta.url));
  if (!existsSync(path))
    throw new CliError(`mcp: the server bundle is missing (${path}); build with npm run build`, 2);
  return path;
}

/** `acp-retry-inspector mcp`. */
export const mcpCommand: CliCommand = {
  name: "mcp",
  summary: "read-only MCP server over your traces (stdio), for a coding agent to help triage",
  help: HELP,
  async run(args) {
    const files: string[] = [];
    for (const a of args) {
      if (a.startsWith("-")) throw new CliError(`mcp: unknown option ${a}\n\n${HELP}`);
      if (!existsSync(a)) throw new CliError(`mcp: no such file: ${a}`);
      files.push(a);
    }
    const { runMcpServer } = (await import(pathToFileURL(serverBundle()).href)) as {
      runMcpServer(options: McpServerOptions): Promise<void>;
    };
    await runMcpServer({ tracesDir: defaultTraceDir(), files, version: TOOL_VERSION });
    return 0;
  },
};
