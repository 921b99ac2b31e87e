import { mcpCommand } from "../../mcp/mcp-command.js";
import type { CliCommand } from "../command.js";
import { analyzeCommand } from "./analyze.js";
import { conformanceCommand } from "./conformance.js";
import { conformanceAgentCommand } from "./conformance-agent.js";
import { convertCommand } from "./convert.js";
import { demoAgentCommand } from "./demo-agent.js";
import { demoClientCommand } from "./demo-client.js";
import { diffCommand } from "./diff.js";
import { exportCommand } from "./export.js";
import { faultCommand } from "./fault.js";
import { proxyCommand } from "./proxy.js";
import { replayCommand } from "./replay.js";
import { serveCommand } from "./serve.js";
import { tapsCommand } from "./taps.js";
import { validateCommand } from "./validate.js";

/** Every subcommand, in the order `--help` lists them. Each lives in its own file beside this one. */
export const commands: readonly CliCommand[] = [
  proxyCommand,
  serveCommand,
  tapsCommand,
  faultCommand,
  analyzeCommand,
  diffCommand,
  validateCommand,
  exportCommand,
  convertCommand,
  replayCommand,
  mcpCommand,
  conformanceCommand,
  conformanceAgentCommand,
  demoAgentCommand,
  demoClientCommand,
];
