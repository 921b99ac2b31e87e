import { closeSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { checkTapName } from "../../../shared/trace/tap-name.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { parseFaultArg } from "../../tap/faults/fault-arg.js";
import { readyLine } from "../../tap/ready-line.js";
import { isAgentUrl } from "../../tap/remote/agent-url.js";
import { FRONT_TOKEN_ENV } from "../../tap/remote/front-token.js";
import { readUpstreamToken } from "../../tap/remote/upstream-token.js";
import { type RunningTap, startTap, TapOptionError, type TapOptions } from "../../tap/start-tap.js";
import { type CliCommand, CliError } from "../command.js";
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

/** Splits the options from the agent command (everything after `--`, or from the first non-option). */
export function parseProxyArgs(args: readonly string[]): ProxyArgs {
  const out: ProxyArgs = { command: [] };
  let i = 0;
  const value = (name: string, a: string): string => {
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
    const v = args[++i];
    if (v === undefined || v === "")
      throw new CliError(name === "--trace" ? "--trace needs a file path" : `${name} needs a value`);
    return v;
  };
  for (; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") {
      i++;
      break;
    }
    const name = a.split("=", 1)[0];
    if (name === "--trace") out.trace = value("--trace", a);
    else if (name === "--fault") out.faults = [...(out.faults ?? []), value("--fault", a)];
    else if (name === "--listen") out.listen = value("--listen", a);
    else if (name === "--agent-url") out.agentUrl = value("--agent-url", a);
    else if (name === "--agent-token-file") out.agentTokenFile = value("--agent-token-file", a);
    else if (name === "--name") out.name = value("--name", a);
    else if (name === "--otlp") out.otlp = value("--otlp", a);
    else if (name === "--otlp-protocol") out.otlpProtocol = value("--otlp-protocol", a);
    else if (a === "--otlp-include-prompts") out.otlpIncludePrompts = true;
    else if (a === "--collect-agent-telemetry") out.collectAgentTelemetry = true;
    else if (name === "--replay-of") {
      const v = value("--replay-of", a);
      const m = /^([0-9a-f]{64}):(.+)$/.exec(v);
      if (!m)
        throw new CliError("--replay-of expects SHA256:FILE (64 lowercase hex digits, a colon, the path)");
      out.replayOf = { sha256: m[1] as string, trace: m[2] as string };
    } else if (name === "--client-notes-fd") {
      const v = value("--client-notes-fd", a);
      if (!/^\d+$/.test(v) || Number(v) < 3)
        throw new CliError(`--client-notes-fd expects a descriptor >= 3, got ${v}`);
      out.clientNotesFd = Number(v);
    } else if (name === "--ready-fd") {
      const v = value("--ready-fd", a);
      if (!/^\d+$/.test(v) || Number(v) < 3)
        throw new CliError(`--ready-fd expects a descriptor >= 3, got ${v}`);
      out.readyFd = Number(v);
    } else if (a === "--ready-json") out.readyJson = true;
    else if (name === "--max-agents") {
      const v = value("--max-agents", a);
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1)
        throw new CliError(`--max-agents expects an integer >= 1, got ${v}`);
      out.maxAgents = n;
    } else if (a === "--no-auth") out.noAuth = true;
    else if (a === "--no-hub") out.noHub = true;
    else if (a.startsWith("-")) throw new CliError(`unknown option '${a}' (put the agent command after --)`);
    else break;
  }
  out.command = args.slice(i);
  if (out.trace === "") throw new CliError("--trace needs a file path");
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
