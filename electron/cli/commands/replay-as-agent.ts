import { isAbsolute, resolve } from "node:path";
import { buildAgentScript } from "../../../shared/replay/agent-script.js";
import { recordedFaultRules } from "../../../shared/replay/recorded-faults.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { defaultStatePath } from "../../replay/agent-state-file.js";
import { readReplaySource } from "../../replay/read-source.js";
import { runReplayAgent, UNANSWERABLE_CODE } from "../../replay/replay-agent.js";
import { CliError } from "../command.js";

/** The usage line of `replay --as agent`. */
export const AS_AGENT_USAGE =
  "acp-retry-inspector replay --as agent TRACE [--state FILE] [--faults recorded|none]";

/** The `--as agent` part of `replay --help` (docs/replay.md#replay---as-agent-the-recorded-agent-for-a-real-client). */
export const AS_AGENT_HELP = `Usage: ${AS_AGENT_USAGE}

Is the recorded agent, on stdio: a drop-in agent command (Zed's agent_servers, acpx --agent,
demo-client -- ...) that answers a real client with the recorded agent side of TRACE, with no model.
Each client request is matched to a recorded one by method, in recorded order, and by
idempotencyKey: the first key a client sends takes the key of the next recorded submission, and its
resends under that key get the recorded attempts' answers in turn (the recorded retry's answer, so
the same messageId). The agent frames recorded after the request (session/update, ...) are written
as recorded, then the recorded answer under the client's id. Session ids are handed out as recorded.
Recorded faults are applied again: an answer the recorded client never got (dropped by a fault, or
lost with a killed agent or closed connection) is not sent; where the recorded agent was killed or
restarted, this process ends the same way (SIGKILL, exit status), so a client that respawns it gets
the next part of the recording. A request the recording cannot answer (a method it lacks, a new key
with no recorded submission left, every recorded attempt used) gets error ${UNANSWERABLE_CODE}
"replay --as agent: cannot answer METHOD: why" (data.replay "unanswerable"). Each decision is a line
on stderr (behind the tap: the trace's agent stderr).

Options:
  --state FILE   where the replay position is kept across respawns (default: a file per trace in
                 the state folder, replay-agent/SHA256-PREFIX.json). A process started within 60 s
                 of a recorded exit continues from there; any other start begins at the start
  --faults recorded  (default) re-apply the recorded faults as above
  --faults none      send every recorded answer the trace holds (a dropped one too) and never end
                     early; stderr names the recorded faults as proxy --fault rules, for a tap in
                     front to apply instead (then the trace shows each loss as a dropped frame,
                     which analyze needs to link a resend under a new key: new-key-on-resend)

Examples:
  acp-retry-inspector demo-client --prompt "deploy it" --setup-timeout 30000 --timeout 2000 -- \\
    acp-retry-inspector replay --as agent bug.jsonl --state bug.state.json
  acpx --agent "acp-retry-inspector replay --as agent bug.jsonl" exec "deploy it"`;

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector replay --as agent: ${terminalSafe(message)}\n`);
}

/** Runs `replay --as agent` with the arguments after `--as agent`; resolves to the exit status. */
export async function runReplayAsAgent(args: readonly string[]): Promise<number> {
  let statePath: string | undefined;
  let faults: "recorded" | "none" = "recorded";
  const sources: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--state" || a.startsWith("--state=")) {
      const v = a.startsWith("--state=") ? a.slice("--state=".length) : args[++i];
      if (v === undefined || v === "") throw new CliError("--state needs a value");
      statePath = v;
    } else if (a === "--faults" || a.startsWith("--faults=")) {
      const v = a.startsWith("--faults=") ? a.slice("--faults=".length) : args[++i];
      if (v !== "recorded" && v !== "none")
        throw new CliError(`--faults expects recorded or none with --as agent, got ${terminalSafe(v ?? "")}`);
      faults = v;
    } else if (a.startsWith("-") && a !== "-")
      throw new CliError(`unknown option '${terminalSafe(a)}' for --as agent\n\nUsage: ${AS_AGENT_USAGE}`);
    else sources.push(a);
  }
  if (sources.length !== 1)
    throw new CliError(
      `${sources.length === 0 ? "no TRACE given" : "give one TRACE"}\n\nUsage: ${AS_AGENT_USAGE}`,
    );
  const path = sources[0] as string;
  const source = readReplaySource(path);
  if ("error" in source) throw new CliError(source.error);
  const script = buildAgentScript(source.records);
  if (script.exchanges.length === 0)
    throw new CliError(
      `${path}: no requests to answer (nothing the agent was asked is in this ${source.formatLabel})`,
    );
  if (source.problems.length > 0)
    say(
      `${source.problems.length} line(s) of ${path} could not be read (first: ${source.problems[0]}); answering from what could`,
    );
  if (script.unusable.length > 0)
    say(
      `${script.unusable.length} agent frame(s) not usable (not UTF-8 text, cut or malformed): seqs ${script.unusable.slice(0, 10).join(", ")}`,
    );
  let state: string;
  try {
    state =
      statePath === undefined
        ? defaultStatePath(source.sha256)
        : isAbsolute(statePath)
          ? statePath
          : resolve(statePath);
  } catch (err) {
    throw new CliError(`${(err as Error).message}; give --state FILE`, 1);
  }
  if (faults === "none")
    for (const rule of recordedFaultRules(source.records).rules)
      say(`not re-applied (--faults none); for a tap in front: proxy --fault ${rule}`);
  say(`answering as the agent of ${path} (${script.exchanges.length} recorded request(s)); state: ${state}`);
  const exit = await runReplayAgent({
    script,
    sha256: source.sha256,
    statePath: state,
    faults,
    input: process.stdin,
    output: process.stdout,
    log: say,
  });
  if (exit === null) return 0;
  if (exit.signal !== null) {
    process.kill(process.pid, exit.signal as NodeJS.Signals);
    // A signal this platform cannot send: the closest exit status.
    return 137;
  }
  return exit.code ?? 1;
}
