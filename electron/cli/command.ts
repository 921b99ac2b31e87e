/** One subcommand of the `acp-retry-inspector` CLI. */
export interface CliCommand {
  /** The word after `acp-retry-inspector`, e.g. `proxy`. */
  readonly name: string;
  /** One line for the top-level `--help` list. */
  readonly summary: string;
  /** The full `--help` text of this subcommand (usage line, options, examples). */
  readonly help: string;
  /** Runs the command with the arguments after its name; resolves to the process exit status. */
  run(args: string[]): Promise<number>;
}

/** An error whose message is shown to the user as is, with exit status `exitCode` (usage errors are 2). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** Splits `[own options...] -- [agent command...]`: the command's own arguments and the agent argv after `--` (empty when absent). */
export function splitAgentCommand(args: readonly string[]): { own: string[]; command: string[] } {
  const dashDash = args.indexOf("--");
  if (dashDash < 0) return { own: [...args], command: [] };
  return { own: args.slice(0, dashDash), command: args.slice(dashDash + 1) };
}
