import { type CliCommand, CliError } from "../command.js";

/** `acp-retry-inspector demo-client`: not built yet. */
export const demoClientCommand: CliCommand = {
  name: "demo-client",
  summary: "(not implemented yet)",
  help: "Usage: acp-retry-inspector demo-client (not implemented yet)",
  async run() {
    throw new CliError("demo-client is not implemented yet", 2);
  },
};
