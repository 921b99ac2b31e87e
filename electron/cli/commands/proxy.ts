import { type CliCommand, CliError } from "../command.js";

/** `acp-retry-inspector proxy`: not built yet. */
export const proxyCommand: CliCommand = {
  name: "proxy",
  summary: "(not implemented yet)",
  help: "Usage: acp-retry-inspector proxy (not implemented yet)",
  async run() {
    throw new CliError("proxy is not implemented yet", 2);
  },
};
