/**
 * Every command's arguments go through node:util `parseArgs` here, so a mistake reads the same in
 * every command: `CMD: unknown option --x`, `CMD: --x needs a value` (or the named value, such as
 * `a file path`), `CMD: --x takes no value`, followed by the command's help.
 */

import { type ParseArgsConfig, parseArgs } from "node:util";
import { CliError } from "./command.js";

/** The options table `parseArgs` takes. */
export type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** What each option's value is, for "--x needs ..." (default "a value"). */
export type OptionValueWords<T extends ParseArgsOptionsConfig> = Partial<Record<keyof T, string>>;

/** Parses `args` strictly (positionals allowed); a usage mistake or an empty value throws a CliError in the shared words. */
export function parseCommandArgs<T extends ParseArgsOptionsConfig>(
  command: string,
  help: string,
  args: readonly string[],
  options: T,
  needs: OptionValueWords<T> = {},
) {
  const fail = (words: string) => new CliError(`${command}: ${words}${help === "" ? "" : `\n\n${help}`}`);
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (err) {
    throw fail(usageWords(err, args, options, needs));
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.includes(""))
      throw fail(`${typedForm(name, args, options)} needs ${needs[name] ?? "a value"}`);
  }
  return parsed;
}

/** A `parseArgs` error of `command` as a CliError in the shared words (for a command that calls `parseArgs` itself). */
export function usageError(command: string, err: unknown, args: readonly string[], help = ""): CliError {
  return new CliError(`${command}: ${usageWords(err, args, {}, {})}${help === "" ? "" : `\n\n${help}`}`);
}

/**
 * The option arguments before the agent command, and the command: everything after `--`, or from
 * the first argument that is neither an option nor an option's value.
 */
export function splitAtCommand(
  args: readonly string[],
  options: ParseArgsOptionsConfig,
): { own: string[]; command: string[] } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") return { own: args.slice(0, i), command: args.slice(i + 1) };
    if (!a.startsWith("-") || a === "-") return { own: args.slice(0, i), command: args.slice(i) };
    if (a.includes("=")) continue;
    const option = a.startsWith("--")
      ? options[a.slice(2)]
      : Object.values(options).find((o) => a.length === 2 && o.short === a.slice(1));
    if (option?.type === "string") i++;
  }
  return { own: [...args], command: [] };
}

/** The shared words for a `parseArgs` error. */
function usageWords(
  err: unknown,
  args: readonly string[],
  options: ParseArgsOptionsConfig,
  needs: Record<string, string | undefined>,
): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: string }).code;
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${quoted}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = /--([^\s'=<]+)/.exec(quoted)?.[1] ?? optionNamed(quoted, options) ?? "";
    const typed = typedForm(name, args, options);
    if (/does not take an argument/.test(message)) return `${typed} takes no value`;
    return `${typed} needs ${needs[name] ?? "a value"}`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument ${quoted}`;
  return message;
}

function optionNamed(short: string, options: ParseArgsOptionsConfig): string | undefined {
  return Object.entries(options).find(([, o]) => `-${o.short}` === short)?.[0];
}

/** The form of option `name` the user typed last (`-o` or `--output`). */
function typedForm(name: string, args: readonly string[], options: ParseArgsOptionsConfig): string {
  const short = options[name]?.short;
  for (let i = args.length - 1; i >= 0; i--) {
    const a = args[i] ?? "";
    if (short !== undefined && (a === `-${short}` || (a.startsWith(`-${short}`) && !a.startsWith("--"))))
      return `-${short}`;
    if (a === `--${name}` || a.startsWith(`--${name}=`)) return `--${name}`;
  }
  return `--${name}`;
}
