import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { claimFile, type RunSchedule } from "../../conformance/client/run-schedule.js";
import { type CliCommand, CliError } from "../command.js";
import { proxyCommand } from "./proxy.js";

const HELP = `Usage: acp-retry-inspector conformance-agent RUN_DIR

The agent command that \`conformance --client\` puts in place of {agent} in the client's command:
the reference agent (demo-agent) behind the recording tap, for one connection of one run of the
client suite. It takes the next connection number n of RUN_DIR (conn-n.claim), then runs
  proxy --no-hub --trace RUN_DIR/conn-n.jsonl [--fault RULE]... -- demo-agent --store RUN_DIR/store ...
with the run's faults from RUN_DIR/schedule.json, as long as none of the earlier connections'
traces shows a fault that fired (so a client whose first connection failed before its prompt still
meets the fault once, on the next one). Started by the suite; not meant to be run by hand.`;

/** Takes the lowest free connection number of `runDir` (created exclusively, so two spawns never share one). */
function claimConnection(runDir: string): number {
  for (let n = 1; n < 1000; n++) {
    let fd: number;
    try {
      fd = openSync(claimFile(runDir, n), "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new CliError(
        `conformance-agent: cannot claim a connection in ${runDir}: ${(err as Error).message}`,
        1,
      );
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return n;
  }
  throw new CliError(`conformance-agent: ${runDir} has no free connection number`, 1);
}

/** Whether a fault fired on one of the connections before `conn` (their traces hold a `fault` record). */
function faultFiredBefore(runDir: string, conn: number): boolean {
  for (let n = 1; n < conn; n++) {
    try {
      if (readFileSync(join(runDir, `conn-${n}.jsonl`), "utf8").includes('"type":"fault"')) return true;
    } catch {
      // That connection left no trace.
    }
  }
  return false;
}

/** `acp-retry-inspector conformance-agent`: one connection of a client-suite run. */
export const conformanceAgentCommand: CliCommand = {
  name: "conformance-agent",
  summary:
    "the agent `conformance --client` gives the client under test (demo-agent behind the tap; started by the suite)",
  help: HELP,
  async run(args) {
    const [runDir, ...rest] = args;
    if (runDir === undefined || rest.length > 0)
      throw new CliError("usage: acp-retry-inspector conformance-agent RUN_DIR");
    let schedule: RunSchedule;
    try {
      schedule = JSON.parse(readFileSync(join(runDir, "schedule.json"), "utf8")) as RunSchedule;
    } catch (err) {
      throw new CliError(
        `conformance-agent: cannot read ${join(runDir, "schedule.json")}: ${(err as Error).message}`,
        1,
      );
    }
    const conn = claimConnection(runDir);
    const script = process.argv[1];
    const self = [process.execPath, ...(script ? [script] : [])];
    return proxyCommand.run([
      "--no-hub",
      "--trace",
      join(runDir, `conn-${conn}.jsonl`),
      ...(faultFiredBefore(runDir, conn) ? [] : schedule.faults).flatMap((rule) => ["--fault", rule]),
      "--",
      ...self,
      "demo-agent",
      "--store",
      join(runDir, "store"),
      ...schedule.agentArgs,
    ]);
  },
};
