import { type CliCommand, CliError } from "../command.js";

/** `acp-retry-inspector demo-agent`: not built yet. */
export const demoAgentCommand: CliCommand = {
  name: "demo-agent",
  summary: "(not implemented yet)",
  help: "Usage: acp-retry-inspector demo-agent (not implemented yet)",
  async run() {
    throw new CliError("demo-agent is not implemented yet", 2);
  },
};
