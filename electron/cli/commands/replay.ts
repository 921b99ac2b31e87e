import { isAbsolute, resolve } from "node:path";
import type { PermissionPolicy } from "../../../shared/replay/agent-answers.js";
import { recordedFaultRules } from "../../../shared/replay/recorded-faults.js";
import { planReplay } from "../../../shared/replay/replay-plan.js";
import { readReplaySource } from "../../replay/read-source.js";
import { runReplay } from "../../replay/replay-session.js";
import { defaultTraceDir, newDefaultTracePath, TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { freeTracePath } from "../../trace/private-files.js";
import { type CliCommand, CliError, splitAgentCommand } from "../command.js";
import { terminalSafe } from "../report/terminal-text.js";
import { AS_AGENT_HELP, runReplayAsAgent } from "./replay-as-agent.js";

const USAGE =
  "acp-retry-inspector replay TRACE [--trace FILE] [--faults recorded|none] [--permissions recorded|allow|deny] [--timing asap|recorded] [--max-gap-ms N] [--answer-timeout-ms N] [--no-hub] -- AGENT...";

const HELP = `Usage: ${USAGE}

Plays the client side of a recorded session again, against AGENT started behind the recording tap
(proxy), so the replay is itself a trace: its header's replayOf names TRACE and its sha256.
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
  --permissions P     the agent's own requests (session/request_permission, fs/*, terminal/*) get the
                      recorded client's answer to the next recorded request of that method when it
                      fits; otherwise a permission request is allowed (allow) or rejected (deny), and
                      with recorded (default), or for any other method, a JSON-RPC error that says the
                      recording has no answer. Each answer is a note in the trace saying which
  --timing asap       (default) send as soon as the answers waited for came
  --timing recorded   also keep the recorded gaps between client frames, each at most --max-gap-ms
                      (default 2000)
  --answer-timeout-ms N  how long to wait for an awaited answer (default 30000)
  --no-hub            the tap does not look for a hub (as proxy --no-hub)

Exit status: 0 the replay ran to the end (verdicts are for analyze); 1 the agent could not be
started or ended before the replay did, or TRACE was only partly readable (truncated): what could be
read was replayed (the reason on stderr; the trace has what happened); 2 usage error, or TRACE is
unreadable or has no client frames.

Examples:
  acp-retry-inspector replay bug.jsonl -- acp-retry-inspector demo-agent --mode naive
  acp-retry-inspector replay zed-log.json --faults none --trace v2.jsonl -- my-agent-v2 --acp`;

/** The parsed command line of `replay`. */
interface ReplayArgs {
  source: string;
  trace?: string;
  faults: "recorded" | "none";
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
    else if (name === "--faults") {
      const v = value();
      if (v !== "recorded" && v !== "none")
        throw new CliError(
          `--faults expects recorded or none (a fault plan file is not read yet), got ${terminalSafe(v)}`,
        );
      out.faults = v;
    } else if (name === "--permissions")
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
  if (out.agent.length === 0) throw new CliError(`no agent command after --\n\nUsage: ${USAGE}`);
  return { ...(out as ReplayArgs), source: sources[0] as string };
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
    const faults =
      parsed.faults === "recorded" ? recordedFaultRules(source.records) : { rules: [], remarks: [] };
    for (const r of faults.remarks) say(r);
    for (const r of faults.rules) say(`re-applying the recorded fault as --fault ${r}`);
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
      agent: parsed.agent,
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
