/**
 * The agents the app may run the conformance suite against, and nothing else: the built-in demo
 * agent in each mode, the agent command given on the hub's command line (`serve -- <command...>`),
 * and the agents of the local config file (`agents.json` in the per-user config folder, or
 * `--agents FILE`). A UI picks one by id; it can never name a command of its own.
 */

import { readFileSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import type { AgentChoice } from "../../shared/conformance/conformance-run.js";
import { AGENT_MODES } from "../../shared/demo/scenario.js";
import { isJsonObject } from "../../shared/protocol/json-object.js";
import { userDir } from "../platform/user-dirs.js";
import type { AgentUnderTest } from "./conformance-options.js";

/** A choice with what running it takes: the agent for a run whose files go to `runDir`. */
export interface AgentChoiceEntry {
  readonly choice: AgentChoice;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  agent(runDir: string): AgentUnderTest;
}

/** The choices, and why the config file could not be read (its agents are then left out). */
export interface AgentChoices {
  readonly entries: readonly AgentChoiceEntry[];
  readonly configProblem?: string;
}

/** What `builtIn` expects of each demo-agent mode, shown beside it in the picker. */
const MODE_NOTES: Record<string, string> = {
  correct: "honours the RFD: passes every case",
  naive: "ignores keys: fails every retry case",
  forgetful: "keeps keys in memory only: fails the restart case",
  strict: "rejects more than it must: still passes",
};

/** Shell-style quoting of one argument, for showing a command line (never for running it). */
export function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line as text, for the user to read before it runs. */
export function commandText(command: readonly string[]): string {
  return command.map(quoteArg).join(" ");
}

/** The built-in demo agent in each mode, started from this CLI bundle with a fresh store per run. */
export function builtInChoices(cliCommand: readonly string[]): AgentChoiceEntry[] {
  return AGENT_MODES.map((mode) => {
    const command = (store: string) => [...cliCommand, "demo-agent", "--mode", mode, "--store", store];
    return {
      choice: {
        id: `demo-${mode}`,
        label: `demo-agent --mode ${mode}`,
        source: "built-in",
        target: commandText(command("<run folder>/store")),
        note: MODE_NOTES[mode],
      },
      agent: (runDir: string) => ({ kind: "stdio", command: command(join(runDir, "store")) }),
    };
  });
}

/** The agent command from the hub's own command line. */
export function argvChoice(command: readonly string[], cwd: string): AgentChoiceEntry {
  return {
    choice: {
      id: "argv",
      label: `${basename(command[0] ?? "agent")} (command line)`,
      source: "argv",
      target: commandText(command),
      cwd,
    },
    cwd,
    agent: () => ({ kind: "stdio", command }),
  };
}

/** The local agents file: `--agents FILE`, else `agents.json` in the per-user config folder. */
export function defaultAgentsFile(): string {
  return join(userDir("config"), "agents.json");
}

function stringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string" && s.length > 0);
}

/** Parses the agents file's text (see docs/conformance.md); throws an Error naming the bad entry. */
export function parseAgentsConfig(text: string, fileDir: string): AgentChoiceEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!isJsonObject(doc) || !Array.isArray(doc.agents)) throw new Error('expected {"agents": [...]}');
  return doc.agents.map((raw, i): AgentChoiceEntry => {
    const where = `agents[${i}]`;
    if (!isJsonObject(raw)) throw new Error(`${where} is not an object`);
    if (typeof raw.name !== "string" || raw.name.trim() === "") throw new Error(`${where} needs a name`);
    const id = `config-${i + 1}`;
    const label = raw.name.trim().slice(0, 100);
    if (raw.url !== undefined) {
      if (typeof raw.url !== "string" || !/^(wss?|https?):\/\//i.test(raw.url))
        throw new Error(`${where}.url must be a ws://, wss://, http:// or https:// URL`);
      if (raw.restartCommand !== undefined && typeof raw.restartCommand !== "string")
        throw new Error(`${where}.restartCommand must be a string (run by the shell)`);
      const url = raw.url;
      const restartCommand = raw.restartCommand as string | undefined;
      return {
        choice: {
          id,
          label,
          source: "config",
          target: restartCommand ? `${url} (restart: ${restartCommand})` : url,
        },
        agent: () => ({ kind: "url", url, ...(restartCommand !== undefined && { restartCommand }) }),
      };
    }
    if (!stringList(raw.command)) throw new Error(`${where} needs a command (a list of strings) or a url`);
    if (raw.cwd !== undefined && typeof raw.cwd !== "string")
      throw new Error(`${where}.cwd must be a string`);
    if (
      raw.env !== undefined &&
      !(isJsonObject(raw.env) && Object.values(raw.env).every((v) => typeof v === "string"))
    )
      throw new Error(`${where}.env must map names to strings`);
    const command = raw.command;
    const cwd = raw.cwd === undefined ? fileDir : isAbsolute(raw.cwd) ? raw.cwd : resolve(fileDir, raw.cwd);
    const env = raw.env as Record<string, string> | undefined;
    return {
      choice: { id, label, source: "config", target: commandText(command), cwd },
      cwd,
      ...(env && { env }),
      agent: () => ({ kind: "stdio", command }),
    };
  });
}

/** Reads the agents file; a missing default file is no problem, any other failure is reported. */
export function readAgentsConfig(file: string, explicit: boolean): AgentChoices {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !explicit) return { entries: [] };
    return { entries: [], configProblem: `cannot read ${file}: ${code ?? (err as Error).message}` };
  }
  try {
    return { entries: parseAgentsConfig(text, resolve(file, "..")) };
  } catch (err) {
    return { entries: [], configProblem: `${file}: ${(err as Error).message}` };
  }
}

/** Every choice for a hub: built-in, then the command line's, then the config file's. */
export function agentChoices(o: {
  readonly cliCommand: readonly string[];
  readonly argvCommand?: readonly string[];
  readonly cwd: string;
  readonly agentsFile?: string;
}): AgentChoices {
  const config = readAgentsConfig(o.agentsFile ?? defaultAgentsFile(), o.agentsFile !== undefined);
  return {
    entries: [
      ...builtInChoices(o.cliCommand),
      ...(o.argvCommand && o.argvCommand.length > 0 ? [argvChoice(o.argvCommand, o.cwd)] : []),
      ...config.entries,
    ],
    ...(config.configProblem !== undefined && { configProblem: config.configProblem }),
  };
}
