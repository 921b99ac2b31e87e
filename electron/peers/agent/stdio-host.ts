/** Serves the demo agent on this process's stdin/stdout (newline-delimited JSON-RPC); stderr is for logs. */

import { nodeNdJsonStream } from "../rpc/ndjson-stream.js";
import { AgentConnection, type AgentInfo } from "./agent-connection.js";
import type { DemoAgent } from "./demo-agent.js";

/** Serves one connection over stdio; resolves when stdin ends. */
export async function serveStdio(agent: DemoAgent, info: AgentInfo): Promise<void> {
  const stream = nodeNdJsonStream(process.stdout, process.stdin);
  await new AgentConnection(agent, stream, info).closed;
}
