#!/usr/bin/env node
import { terminalSafe } from "../platform/terminal-text.js";
import { TOOL_VERSION } from "../platform/version.js";
import { type CliCommand, CliError } from "./command.js";
import { commands } from "./commands/index.js";

/** The top-level `--help` text, derived from the command table so it never drifts from the code. */
export function topLevelHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `acp-retry-inspector ${TOOL_VERSION}: a logging proxy, timeline and analyzer for ACP retries and idempotency keys`,
    "",
    "Usage: acp-retry-inspector <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `acp-retry-inspector <command> --help` for a command's options.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const target = name === "help" ? commands.find((c) => c.name === rest[0]) : undefined;
    process.stdout.write(`${target ? target.help : topLevelHelp()}\n`);
    return 0;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  const command: CliCommand | undefined = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(
      `acp-retry-inspector: unknown command '${terminalSafe(name)}'\n\n${topLevelHelp()}\n`,
    );
    return 2;
  }
  if (rest[0] === "--help" || rest[0] === "-h") {
    process.stdout.write(`${command.help}\n`);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof CliError) {
      // Messages may quote a trace, a peer or an argument: shown escaped, line breaks kept.
      process.stderr.write(`acp-retry-inspector: ${terminalSafe(err.message, { keepNewlines: true })}\n`);
      process.exitCode = err.exitCode;
    } else {
      process.stderr.write(
        `acp-retry-inspector: internal error: ${terminalSafe(err instanceof Error ? (err.stack ?? err.message) : String(err), { keepNewlines: true })}\n`,
      );
      process.exitCode = 70;
    }
  },
);
