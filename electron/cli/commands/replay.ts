import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { PermissionPolicy } from "../../../shared/replay/agent-answers.js";
import { type PlacedFaults, placeFaultPlan } from "../../../shared/replay/fault-plan.js";
import { recordedFaultRules } from "../../../shared/replay/recorded-faults.js";
import { planReplay } from "../../../shared/replay/replay-plan.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { readReplaySource } from "../../replay/read-source.js";
import { runReplay } from "../../replay/replay-session.js";
import { isAgentUrl } from "../../tap/remote/agent-url.js";
import { defaultTraceDir, newDefaultTracePath, TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { freeTracePath } from "../../trace/private-files.js";
import { type CliCommand, CliError, splitAgentCommand } from "../command.js";
import { AS_AGENT_HELP, runReplayAsAgent } from "./replay-as-agent.js";

const USAGE =
  "acp-retry-inspector replay TRACE [--trace FILE] [--faults recorded|none|PLAN.json] [--permissions recorded|allow|deny] [--timing asap|recorded] [--max-gap-ms N] [--answer-timeout-ms N] [--no-hub] (-- AGENT... | --url URL [--agent-token-file FILE])";

const HELP = `Usage: ${USAGE}

Plays the client side of a recorded session again, against AGENT started behind the recording tap
(proxy), or a remote agent at --url behind a tap front, so the replay is itself a trace: its
header's replayOf names TRACE and its sha256.
TRACE is any file analyze reads: an acp-retry-inspector trace, a Zed ACP log, a sacp trace, an
ACP-inspector recording, a HAR or an acp-devtools session export (detected from the content).

What is kept: every frame the client sent, in order, byte for byte (the same prompts, the same
idempotencyKeys, the same JSON-RPC ids); each frame waits for the answers the recorded client had
seen before it (at most --answer-timeout-ms). The sessionId the new agent gives in answer to a
replayed session/new (or session/fork) replaces the recorded one in every later frame. Frames the
tap or the inspector wrote (origin tap, inspector) are not sent: the faults make them again. Client
connections after the first are played over the same stdio connection (ids already used renamed).

Options:
  --trace FILE        write the replay's trace here (as proxy --trace); default: a new file in
                      ${defaultTraceDir()} (${TRACE_DIR_ENV} moves it). The path is printed on stderr
  --faults recorded   (default) arm the source's faults again as proxy --fault rules, at the same
                      logical point: the same method and side, and the request's idempotencyKey when
                      it had one (so a lost answer to key K is lost again); faults without a key fire
                      on the next matching frame in order, and stderr says so
  --faults none       no faults
  --faults PLAN.json  arm the plan's rules instead: {"faults": [RULE, ...]}, each RULE as the hub
                      takes it ({action, match: {method, idempotencyKey, on}, count, delayMs}) plus
                      nth: N (the N-th request of match.method in TRACE, placed by its key).
                      docs/replay.md#a-fault-plan-file
  --url URL           the agent is remote (ws://, wss://, http://, https://): the tap listens on
                      loopback and forwards to it (proxy --listen --agent-url); no AGENT command.
                      The replay's remarks are on stderr only (a front takes no notes)
  --agent-token-file FILE  with --url: the remote agent's bearer token, from a file of yours alone
                      (as proxy --agent-token-file; never on the command line)
  --permissions P     the agent's own requests (session/request_permission, fs/*, terminal/*) get the
                      recorded client's answer to the next recorded request of that method when it
                      fits; otherwise a permission request is allowed (allow) or rejected (deny), and
                      with recorded (default), or for any other method, a JSON-RPC error that says the
                      recording has no answer. Each answer is a note in the trace saying which
  --timing asap       (default) send as soon as the answers waited for came
  --timing recorded   also keep the recorded gaps between client frames, each at most --max-gap-ms
                      (default 2000)
  --answer-timeout-ms N  how long to wait for an awaited answer (default 30000); before closing,
                      the replay waits for the recorded answers until N ms pass with none
  --no-hub            the tap does not look for a hub (as proxy --no-hub)

Exit status: 0 the replay ran to the end (verdicts are for analyze); 1 the agent could not be
started or ended before the replay did, or TRACE was only partly readable (truncated): what could be
read was replayed (the reason on stderr; the trace has what happened); 2 usage error, or TRACE is
unreadable or has no client frames.

Examples:
  acp-retry-inspector replay bug.jsonl -- acp-retry-inspector demo-agent --mode naive
  acp-retry-inspector replay zed-log.json --faults none --trace v2.jsonl -- my-agent-v2 --acp
  acp-retry-inspector replay bug.jsonl --faults plan.json --url ws://127.0.0.1:8080/acp`;

/** The parsed command line of `replay`. */
interface ReplayArgs {
  source: string;
  trace?: string;
  /** `recorded`, `none`, or a fault plan file's path. */
  faults: string;
  url?: string;
  agentTokenFile?: string;
  permissions: PermissionPolicy;
  timing: "asap" | "recorded";
  maxGapMs: number;
  answerTimeoutMs: number;
  noHub: boolean;
  agent: string[];
}

function parseReplayArgs(args: readonly string[]): ReplayArgs {
  const { own, command } = splitAgentCommand(args);
  const out: Partial<ReplayArgs> & { agent: string[] } = {
    faults: "recorded",
    permissions: "recorded",
    timing: "asap",
    maxGapMs: 2000,
    answerTimeoutMs: 30_000,
    noHub: false,
    agent: command,
  };
  const sources: string[] = [];
  const choice = <T extends string>(name: string, v: string, allowed: readonly T[]): T => {
    if ((allowed as readonly string[]).includes(v)) return v as T;
    throw new CliError(`${name} expects one of ${allowed.join(", ")}, got ${terminalSafe(v)}`);
  };
  const ms = (name: string, v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) > 86_400_000)
      throw new CliError(`${name} expects milliseconds (an integer), got ${terminalSafe(v)}`);
    return Number(v);
  };
  for (let i = 0; i < own.length; i++) {
    const a = own[i] ?? "";
    const [name, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    const value = (): string => {
      const v = inline ?? own[++i];
      if (v === undefined || v === "") throw new CliError(`${name} needs a value`);
      return v;
    };
    if (name === "--trace") out.trace = value();
    else if (name === "--faults") out.faults = value();
    else if (name === "--url") out.url = value();
    else if (name === "--agent-token-file") out.agentTokenFile = value();
    else if (name === "--permissions")
      out.permissions = choice(name, value(), ["recorded", "allow", "deny"] as const);
    else if (name === "--timing") out.timing = choice(name, value(), ["asap", "recorded"] as const);
    else if (name === "--max-gap-ms") out.maxGapMs = ms(name, value());
    else if (name === "--answer-timeout-ms") out.answerTimeoutMs = ms(name, value());
    else if (a === "--no-hub") out.noHub = true;
    else if (a.startsWith("-") && a !== "-")
      throw new CliError(`unknown option '${terminalSafe(a)}'\n\nUsage: ${USAGE}`);
    else sources.push(a);
  }
  if (sources.length !== 1)
    throw new CliError(`${sources.length === 0 ? "no TRACE given" : "give one TRACE"}\n\nUsage: ${USAGE}`);
  if (out.url !== undefined) {
    if (out.agent.length > 0) throw new CliError("give either --url or an agent command after --, not both");
    if (!isAgentUrl(out.url)) throw new CliError("--url must be a ws://, wss://, http:// or https:// URL");
  } else if (out.agentTokenFile !== undefined) throw new CliError("--agent-token-file needs --url");
  else if (out.agent.length === 0)
    throw new CliError(`no agent command after -- (or --url)\n\nUsage: ${USAGE}`);
  return { ...(out as ReplayArgs), source: sources[0] as string };
}

/** The rules `--faults` asks for: the source's, none, or a plan file's (a usage error when it cannot be used). */
function chosenFaults(
  faults: string,
  records: Parameters<typeof recordedFaultRules>[0],
  plan: ReturnType<typeof planReplay>,
): PlacedFaults {
  if (faults === "recorded") return { ...recordedFaultRules(records), unawaited: new Set() };
  if (faults === "none") return { rules: [], remarks: [], unawaited: new Set() };
  let text: string;
  try {
    text = readFileSync(faults, "utf8");
  } catch (err) {
    throw new CliError(
      `--faults ${terminalSafe(faults)}: not recorded or none, and not a readable plan file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  const placed = placeFaultPlan(text, plan);
  if (typeof placed === "string") throw new CliError(`--faults ${terminalSafe(faults)}: ${placed}`);
  return placed;
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector replay: ${terminalSafe(message)}\n`);
}

/** `acp-retry-inspector replay`: plays a recorded client side against an agent behind the tap, with its faults. */
export const replayCommand: CliCommand = {
  name: "replay",
  summary: "play a recorded session's client side again against an agent, behind the tap, with its faults",
  help: `${HELP}\n\n${AS_AGENT_HELP}`,
  async run(args) {
    // `--as agent` is the other side: this process answers a client as the recorded agent.
    const asAt = args.findIndex((a) => a === "--as" || a.startsWith("--as="));
    const dashDash = args.indexOf("--");
    if (asAt >= 0 && (dashDash < 0 || asAt < dashDash)) {
      const as = args[asAt] === "--as" ? args[asAt + 1] : args[asAt]?.slice("--as=".length);
      if (as !== "agent") throw new CliError("--as expects agent (replay --as agent TRACE)");
      return runReplayAsAgent([
        ...args.slice(0, asAt),
        ...args.slice(asAt + (args[asAt] === "--as" ? 2 : 1)),
      ]);
    }
    const parsed = parseReplayArgs(args);
    const source = readReplaySource(parsed.source);
    if ("error" in source) throw new CliError(source.error);
    const plan = planReplay(source.records);
    if (plan.steps.length === 0)
      throw new CliError(
        `${parsed.source}: no client frames (nothing the client sent is in this ${source.formatLabel})`,
      );
    if (source.problems.length > 0)
      say(
        `${source.problems.length} line(s) or entr(ies) of ${parsed.source} could not be read (first: ${source.problems[0]}); replaying what could be read`,
      );
    if (plan.unsent.length > 0)
      say(
        `${plan.unsent.length} client frame(s) not sent: not UTF-8 text, or longer than the trace holds (source seqs ${plan.unsent.slice(0, 10).join(", ")})`,
      );
    const faults = chosenFaults(parsed.faults, source.records, plan);
    for (const r of faults.remarks) say(r);
    const armed =
      parsed.faults === "recorded" ? "re-applying the recorded fault" : "arming the planned fault";
    for (const r of faults.rules) say(`${armed} as --fault ${r}`);
    let tracePath: string;
    if (parsed.trace !== undefined) tracePath = freeTracePath(parsed.trace);
    else {
      try {
        tracePath = newDefaultTracePath(new Date());
      } catch (err) {
        throw new CliError(`${(err as Error).message}; give --trace FILE`, 1);
      }
    }
    say(`trace: ${tracePath}`);
    const script = process.argv[1];
    const outcome = await runReplay(plan, {
      cli: [process.execPath, ...(script ? [script] : [])],
      agent:
        parsed.url !== undefined
          ? {
              kind: "url",
              url: parsed.url,
              ...(parsed.agentTokenFile !== undefined && { tokenFile: parsed.agentTokenFile }),
            }
          : { kind: "command", command: parsed.agent },
      unawaited: faults.unawaited,
      tracePath,
      source: {
        path: isAbsolute(parsed.source) ? parsed.source : resolve(parsed.source),
        sha256: source.sha256,
      },
      faultRules: faults.rules,
      permissions: parsed.permissions,
      timing: parsed.timing,
      maxGapMs: parsed.maxGapMs,
      answerTimeoutMs: parsed.answerTimeoutMs,
      noHub: parsed.noHub,
      errOut: process.stderr,
    });
    for (const r of outcome.remarks) say(r);
    const status = outcome.exit.signal ?? `exit status ${outcome.exit.code}`;
    if (!outcome.completed) {
      say(`stopped: ${outcome.reason ?? "the tap exited"} (tap: ${status}); trace: ${tracePath}`);
      return 1;
    }
    say(`replayed ${outcome.sent} client frame(s) (agent: ${status}); trace: ${tracePath}`);
    if (source.problems.length > 0) {
      say(
        `incomplete: ${parsed.source} was only partly readable (truncated or damaged), so only part of it was replayed`,
      );
      return 1;
    }
    return 0;
  },
};
