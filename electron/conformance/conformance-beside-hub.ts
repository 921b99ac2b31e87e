/**
 * Gives a hub (the desktop app's, or `serve`'s) its conformance runner: the agent choices from the
 * built-in demo agent, the hub's own command line and the local agents file, and a
 * `ConformanceDesk` that UIs drive through the hub. Returns the function that stops it.
 */
import type { RunningHub } from "../hub/hub-server.js";
import { ReplayRunner } from "../hub/replay-runner.js";
import { agentChoices } from "./agent-choices.js";
import { ConformanceDesk } from "./conformance-desk.js";

/** Where the runner's choices come from. */
export interface ConformanceBesideHubOptions {
  /** The CLI bundle (`dist/cli.js`): runs the tap and the built-in demo agent. */
  readonly cliPath: string;
  /** The agent command given on the hub's command line, if any. */
  readonly argvCommand?: readonly string[];
  /** The local agents file (`--agents FILE`); default: `agents.json` in the per-user config folder. */
  readonly agentsFile?: string;
  /** The working directory of the command-line agent (default: this process's). */
  readonly cwd?: string;
  readonly log?: (line: string) => void;
}

/** Attaches a conformance runner to `hub`; the result cancels any run and detaches it. */
export function startConformanceBesideHub(
  hub: RunningHub,
  options: ConformanceBesideHubOptions,
): () => Promise<void> {
  // In Electron, process.execPath is the Electron binary: it runs the CLI as plain Node with this.
  const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: "1" } : {};
  const cliCommand = [process.execPath, options.cliPath];
  const choices = agentChoices({
    cliCommand,
    ...(options.argvCommand && { argvCommand: options.argvCommand }),
    ...(options.agentsFile !== undefined && { agentsFile: options.agentsFile }),
    cwd: options.cwd ?? process.cwd(),
  });
  if (choices.configProblem) options.log?.(`conformance: ${choices.configProblem}`);
  const desk = new ConformanceDesk({
    choices,
    cliCommand,
    tracesDir: hub.tracesDir,
    env,
    ...(options.log && { log: options.log }),
  });
  const detach = hub.attachConformance(desk);
  // "Replay against…" runs the same configured agents, spawned the same way.
  const replay = new ReplayRunner({
    choices,
    cliCommand,
    tracesDir: hub.tracesDir,
    hub,
    env,
    ...(options.log && { log: options.log }),
  });
  const detachReplay = hub.attachReplay(replay);
  return async () => {
    detach();
    detachReplay();
    await Promise.all([desk.close(), replay.close()]);
  };
}
