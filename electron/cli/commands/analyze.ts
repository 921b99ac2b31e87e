import { type CliCommand, CliError } from "../command.js";

/** `acp-retry-inspector analyze`: not built yet. */
export const analyzeCommand: CliCommand = {
  name: "analyze",
  summary: "(not implemented yet)",
  help: "Usage: acp-retry-inspector analyze (not implemented yet)",
  async run() {
    throw new CliError("analyze is not implemented yet", 2);
  },
};
