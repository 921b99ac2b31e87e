import { closeSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { checkTapName } from "../../../shared/trace/tap-name.js";
import { FRONT_TOKEN_ENV } from "../../platform/front-token.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { parseFaultArg } from "../../tap/faults/fault-arg.js";
import { readyLine } from "../../tap/ready-line.js";
import { isAgentUrl } from "../../tap/remote/agent-url.js";
import { readUpstreamToken } from "../../tap/remote/upstream-token.js";
import { type RunningTap, startTap, TapOptionError, type TapOptions } from "../../tap/start-tap.js";
import { type CliCommand, CliError } from "../command.js";
import { parseCommandArgs, splitAtCommand } from "../command-args.js";
import { finishOtlpExport, startOtlpExport } from "../otlp-options.js";
import { PROXY_HELP, PROXY_USAGE } from "./proxy-help.js";

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The parsed command line of `proxy`. */
export interface ProxyArgs {
  trace?: string;
  /** `--fault` arguments, unparsed, in order. */
  faults?: string[];
  /** `--no-hub`: never look for a hub. */
  noHub?: true;
  /** `--listen URL`: serve the remote transports instead of stdio. */
  listen?: string;
  /** `--agent-url URL`: forward to a remote agent instead of spawning one (with `--listen`). */
  agentUrl?: string;
  /** `--agent-token-file FILE`: the bearer token sent to `--agent-url` (read from a private file, never argv). */
  agentTokenFile?: string;
  /** `--no-auth`: the remote front takes connections without a bearer token (with `--listen`). */
  noAuth?: true;
  /** `--max-agents N`: client connections the remote front serves at once (with `--listen`). */
  maxAgents?: number;
  /** `--name NAME`: what the hub and the UI call this tap (derived from the agent command and folder by default). */
  name?: string;
  /** `--otlp URL`: also export the session as OpenTelemetry spans to this OTLP/HTTP collector. */
  otlp?: string;
  /** `--otlp-protocol P`: `http/protobuf` (default) or `http/json`. */
  otlpProtocol?: string;
  /** `--otlp-include-prompts`: export the prompt preview too. */
  otlpIncludePrompts?: true;
  /** `--collect-agent-telemetry`: receive the agent's own OTLP spans and record them in the trace. */
  collectAgentTelemetry?: true;
  /** `--replay-of SHA256:FILE` (set by `replay`): the header names the trace this session replays. */
  replayOf?: { trace: string; sha256: string };
  /** `--client-notes-fd N` (set by `replay`): each line read from this descriptor becomes an info `note` record. */
  clientNotesFd?: number;
  /** `--ready-json` (with `--listen`): print the ready line on stdout once listening. */
  readyJson?: true;
  /** `--ready-fd N`: write the ready line to descriptor N (then close it) once ready. */
  readyFd?: number;
  command: string[];
}

/** `proxy`'s options, for `parseArgs` (the agent command follows them, after `--` or from its first word). */
const PROXY_OPTIONS = {
  trace: { type: "string" },
  fault: { type: "string", multiple: true },
  listen: { type: "string" },
  "agent-url": { type: "string" },
  "agent-token-file": { type: "string" },
  name: { type: "string" },
  otlp: { type: "string" },
  "otlp-protocol": { type: "string" },
  "otlp-include-prompts": { type: "boolean" },
  "collect-agent-telemetry": { type: "boolean" },
  "replay-of": { type: "string" },
  "client-notes-fd": { type: "string" },
  "ready-fd": { type: "string" },
  "ready-json": { type: "boolean" },
  "max-agents": { type: "string" },
  "no-auth": { type: "boolean" },
  "no-hub": { type: "boolean" },
} as const;

function descriptor(option: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 3) throw new CliError(`${option} expects a descriptor >= 3, got ${v}`);
  return Number(v);
}

/** Splits the options from the agent command (everything after `--`, or from the first non-option). */
export function parseProxyArgs(args: readonly string[]): ProxyArgs {
  const { own, command } = splitAtCommand(args, PROXY_OPTIONS);
  const { values: v } = parseCommandArgs("proxy", "", own, PROXY_OPTIONS, {
    trace: "a file path",
    name: "a non-empty name",
  });
  const out: ProxyArgs = { command };
  if (v.trace !== undefined) out.trace = v.trace;
  if (v.fault !== undefined) out.faults = v.fault;
  if (v.listen !== undefined) out.listen = v.listen;
  if (v["agent-url"] !== undefined) out.agentUrl = v["agent-url"];
  if (v["agent-token-file"] !== undefined) out.agentTokenFile = v["agent-token-file"];
  if (v.name !== undefined) out.name = v.name;
  if (v.otlp !== undefined) out.otlp = v.otlp;
  if (v["otlp-protocol"] !== undefined) out.otlpProtocol = v["otlp-protocol"];
  if (v["otlp-include-prompts"]) out.otlpIncludePrompts = true;
  if (v["collect-agent-telemetry"]) out.collectAgentTelemetry = true;
  if (v["replay-of"] !== undefined) {
    const m = /^([0-9a-f]{64}):(.+)$/.exec(v["replay-of"]);
    if (!m)
      throw new CliError("--replay-of expects SHA256:FILE (64 lowercase hex digits, a colon, the path)");
    out.replayOf = { sha256: m[1] as string, trace: m[2] as string };
  }
  if (v["client-notes-fd"] !== undefined)
    out.clientNotesFd = descriptor("--client-notes-fd", v["client-notes-fd"]);
  if (v["ready-fd"] !== undefined) out.readyFd = descriptor("--ready-fd", v["ready-fd"]);
  if (v["ready-json"]) out.readyJson = true;
  if (v["max-agents"] !== undefined) {
    const n = Number(v["max-agents"]);
    if (!/^\d+$/.test(v["max-agents"]) || !Number.isSafeInteger(n) || n < 1)
      throw new CliError(`--max-agents expects an integer >= 1, got ${v["max-agents"]}`);
    out.maxAgents = n;
  }
  if (v["no-auth"]) out.noAuth = true;
  if (v["no-hub"]) out.noHub = true;
  if (out.listen === undefined && out.readyJson)
    throw new CliError("--ready-json needs --listen (a stdio tap's stdout is the agent's); use --ready-fd N");
  if (out.listen === undefined && (out.noAuth || out.maxAgents !== undefined))
    throw new CliError(
      `${out.noAuth ? "--no-auth" : "--max-agents"} needs --listen (it is about the remote front)`,
    );
  const badName = out.name === undefined ? undefined : checkTapName(out.name);
  if (badName) throw new CliError(badName);
  if (out.agentUrl !== undefined) {
    if (out.collectAgentTelemetry)
      throw new CliError(
        "--collect-agent-telemetry needs an agent command: the tap gives its OTEL_* variables to the agent it spawns",
      );
    if (out.listen === undefined)
      throw new CliError("--agent-url needs --listen (a remote front forwarding to a remote agent)");
    if (out.command.length > 0) throw new CliError("give either --agent-url or an agent command, not both");
    if (!isAgentUrl(out.agentUrl))
      throw new CliError("--agent-url must be a ws://, wss://, http:// or https:// URL");
  } else if (out.agentTokenFile !== undefined) {
    throw new CliError("--agent-token-file needs --agent-url (it is the remote agent's token)");
  } else if (out.command.length === 0) {
    throw new CliError(`no agent command: ${PROXY_USAGE}`);
  }
  return out;
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector: ${terminalSafe(message)}\n`);
}

/** `acp-retry-inspector proxy`: a drop-in agent command that records the session to a trace file. */
export const proxyCommand: CliCommand = {
  name: "proxy",
  summary: "run an agent behind a recording tap (stdio, or a WebSocket/HTTP front with --listen)",
  help: PROXY_HELP,
  async run(args) {
    const parsed = parseProxyArgs(args);
    // Read first: a refused token file is a usage error before any trace file exists.
    const agentToken = upstreamToken(parsed.agentTokenFile);
    const faults = (parsed.faults ?? []).map((arg, i) => {
      const rule = parseFaultArg(arg, i + 1);
      if (typeof rule === "string") throw new CliError(rule);
      return rule;
    });
    const spanExport = startOtlpExport(
      {
        ...(parsed.otlp !== undefined && { url: parsed.otlp }),
        ...(parsed.otlpProtocol !== undefined && { protocol: parsed.otlpProtocol }),
        includePrompts: parsed.otlpIncludePrompts === true,
      },
      say,
    );
    // A front's token is taken out of the environment at once: its agents must not inherit it.
    const givenToken = parsed.listen === undefined ? undefined : process.env[FRONT_TOKEN_ENV];
    if (parsed.listen !== undefined) delete process.env[FRONT_TOKEN_ENV];
    const options: TapOptions = {
      command: parsed.command,
      faults,
      spanExport,
      say,
      errOut: process.stderr,
      ...(parsed.trace !== undefined && { trace: parsed.trace }),
      ...(parsed.noHub && { noHub: true }),
      ...(parsed.name !== undefined && { name: parsed.name }),
      ...(parsed.otlpIncludePrompts && { includePrompts: true }),
      ...(parsed.collectAgentTelemetry && { collectAgentTelemetry: true }),
      ...(parsed.replayOf && { replayOf: parsed.replayOf }),
      ...(parsed.clientNotesFd !== undefined && { clientNotesFd: parsed.clientNotesFd }),
      ...(parsed.listen !== undefined && {
        listen: parsed.listen,
        auth: parsed.noAuth
          ? "none"
          : givenToken !== undefined && givenToken !== ""
            ? { token: givenToken, source: FRONT_TOKEN_ENV }
            : "generate",
      }),
      ...(parsed.maxAgents !== undefined && { maxAgents: parsed.maxAgents }),
      ...(parsed.agentUrl !== undefined && { agentUrl: parsed.agentUrl, ...agentToken }),
    };
    let tap: RunningTap;
    try {
      tap = await startTap(options);
    } catch (err) {
      if (err instanceof TapOptionError) throw new CliError(err.message);
      say((err as Error).message);
      await finishOtlpExport(spanExport, say);
      return 1;
    }
    announceReady(tap, parsed);
    if (parsed.listen !== undefined) {
      for (const s of FORWARDED_SIGNALS) process.once(s, () => tap.signal(s));
      await tap.done;
      await finishOtlpExport(spanExport, say);
      return 0;
    }
    const forward = (signal: NodeJS.Signals) => tap.signal(signal);
    for (const s of FORWARDED_SIGNALS) process.on(s, forward);
    const outcome = await tap.done;
    for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    process.stdin.destroy();
    await finishOtlpExport(spanExport, say);
    if (outcome.kind === "spawn-failed") return outcome.status;
    if (outcome.kind === "stopped") return 0;
    if (outcome.signal) {
      // Die of the same signal, so our parent sees what it would have seen without the tap.
      process.kill(process.pid, outcome.signal);
      return 128 + (constants.signals[outcome.signal] ?? 0);
    }
    return outcome.code ?? 1;
  },
};

/** Writes the ready line where `--ready-json` (stdout) or `--ready-fd N` asked for it. */
function announceReady(tap: RunningTap, parsed: ProxyArgs): void {
  if (parsed.readyJson) process.stdout.write(readyLine(tap));
  if (parsed.readyFd === undefined) return;
  try {
    writeSync(parsed.readyFd, readyLine(tap));
    closeSync(parsed.readyFd);
  } catch (err) {
    say(`--ready-fd ${parsed.readyFd}: ${(err as Error).message}`);
  }
}

/** `{agentToken}` from `--agent-token-file` (a usage error when the file is not this user's alone or holds no token), or `{}`. */
function upstreamToken(file: string | undefined): { agentToken?: string } {
  if (file === undefined) return {};
  try {
    return { agentToken: readUpstreamToken(file) };
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}
