import { closeSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { checkTapName } from "../../../shared/trace/tap-name.js";
import { OTLP_ENV } from "../../otel/otlp-endpoint.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { faultArgSyntaxLines, parseFaultArg } from "../../tap/faults/fault-arg.js";
import { readyLine } from "../../tap/ready-line.js";
import { isAgentUrl } from "../../tap/remote/agent-url.js";
import { FRONT_TOKEN_ENV } from "../../tap/remote/front-token.js";
import { DEFAULT_MAX_AGENTS } from "../../tap/remote/listen-url.js";
import { readUpstreamToken } from "../../tap/remote/upstream-token.js";
import { type RunningTap, startTap, TapOptionError, type TapOptions } from "../../tap/start-tap.js";
import { defaultTraceDir, TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { type CliCommand, CliError } from "../command.js";
import { finishOtlpExport, startOtlpExport } from "../otlp-options.js";

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

const USAGE =
  "acp-retry-inspector proxy [--name NAME] [--trace FILE] [--fault RULE]... [--no-hub] [--otlp URL [--otlp-protocol P] [--otlp-include-prompts]] [--collect-agent-telemetry] [--listen URL [--agent-url URL [--agent-token-file FILE]] [--max-agents N] [--no-auth] [--ready-json]] [--ready-fd N] -- <agent command...>";

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
    throw new CliError(`no agent command: ${USAGE}`);
  }
  return out;
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector: ${terminalSafe(message)}\n`);
}

const HELP = [
  `Usage: ${USAGE}`,
  "",
  "Spawns the agent and forwards stdin to it and its stdout back, byte for byte and in order,",
  "recording every line (and the agent's stderr, spawn and exit) to a JSONL trace file.",
  "Signals (SIGINT, SIGTERM, SIGHUP) are forwarded; the exit status is the agent's.",
  "When a hub runs (acp-retry-inspector serve), the proxy also streams its records there and",
  "applies the fault rules armed for it (`fault --tap`, acknowledged to the hub); a proxy started",
  "before the hub, or whose hub died, keeps",
  "forwarding and attaches when a hub appears. The session never depends on the hub.",
  "",
  "Options:",
  "  --name NAME      what the hub, `taps` and the UI call this tap (up to 120 characters). Default:",
  "                   the agent program and the folder, e.g. `claude-code-acp @ myrepo`",
  "  --trace FILE     write the trace here: a new file, mode 0600. When FILE is already a file of",
  "                   yours (an earlier run, or a proxy still running with it), FILE-2, FILE-3, ...",
  "                   (before the extension) is written instead and stderr says so; a symbolic link",
  "                   or another user's file is refused and the session runs untraced. Default: a new file in",
  `                   ${defaultTraceDir()}`,
  `                   (a private 0700 folder; set ${TRACE_DIR_ENV} to change it)`,
  "  --fault RULE     arm a fault rule locally, without a hub (repeatable; first given, first applied):",
  ...faultArgSyntaxLines(" ".repeat(19)),
  "                   count (default 1), delay-ms (for delay). The retry actions make the tap resend",
  "                   a client request (session/prompt unless method= names another) with its own id:",
  "                   retry resends each of the next count matching requests right after the",
  "                   client's (its answer recorded, not forwarded); lose-and-retry drops the answer",
  "                   and resends; restart-and-retry drops it, restarts the agent, resumes its",
  "                   sessions and resends; both forward the retry's answer under the client's id.",
  "                   A prompt without an idempotencyKey is resent too: a correct agent inserts it again.",
  "                   A delay records the held frame when it holds it, then its release or `never",
  "                   delivered`.",
  "  --no-hub         do not look for a hub",
  "  --replay-of SHA256:FILE  (given by `replay`) the header's replayOf names FILE and its sha256",
  "  --client-notes-fd N  (given by `replay`) each line read from descriptor N is recorded as an",
  "                   info note (how the replay answered the agent's requests)",
  "  --otlp URL       also export the session as OpenTelemetry spans to this OTLP/HTTP collector",
  "                   (http:// or https://, e.g. http://127.0.0.1:4318; /v1/traces is appended",
  "                   unless the path ends with it). It may be remote: it is your collector. Without",
  `                   the flag, ${OTLP_ENV.tracesEndpoint} (as is) or ${OTLP_ENV.endpoint}`,
  "                   (/v1/traces appended) is used when set; the flag wins. One root span per",
  "                   submission (key hashed, never sent), a child per attempt, a span per other",
  "                   request, agent exits and faults as events. Sent from a worker thread, batched,",
  "                   bounded queue: a slow or dead collector never slows the session; spans that do",
  "                   not fit are dropped and counted on stderr. The trace file stays the record.",
  "                   docs/otel.md",
  "  --otlp-protocol P  http/protobuf (default) or http/json; else OTEL_EXPORTER_OTLP_PROTOCOL",
  "  --otlp-include-prompts  also export each submission's prompt preview (off: no prompt text leaves)",
  "  --collect-agent-telemetry  receive the agent's own OpenTelemetry spans: the tap runs an OTLP/HTTP",
  "                   receiver on 127.0.0.1 (a free port) and starts the agent with",
  "                   OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL (http/protobuf, or http/json when set so),",
  "                   _HEADERS (a random token per agent process: authorization=Bearer ...) and the",
  "                   per-signal _TRACES_/_METRICS_/_LOGS_ ones, replacing inherited values (named on",
  "                   stderr), and OTEL_SERVICE_NAME when unset. Spans are recorded in the trace as",
  "                   agent-span records; the UI nests them under the attempt they belong to (and",
  "                   lists those that match none, with why). Metrics and logs are accepted and",
  "                   counted. Not with --agent-url. docs/otel.md",
  "  --listen URL     serve remote clients instead of stdio: ws://127.0.0.1:PORT[/PATH] (PATH /acp by",
  "                   default, PORT 0 picks one) serves WebSocket and Streamable HTTP on that path.",
  "                   Each client connection gets its own agent process (spawned from the command)",
  "                   and its own connection number in the trace. Prints the URLs on stderr.",
  "                   Every request must carry Authorization: Bearer TOKEN. The token is random per",
  "                   run, printed once on stderr and written (mode 0600) to TRACE.token, next to",
  "                   the trace file (removed when the front stops); or it is the value of",
  `                   ${FRONT_TOKEN_ENV}, which is then neither printed nor written.`,
  "                   Clients: demo-client --url URL --token-file TRACE.token",
  `  --max-agents N   with --listen: serve at most N client connections at once (default ${DEFAULT_MAX_AGENTS}), each`,
  "                   with its agent process; one more is refused with a reason (HTTP 503, or a",
  "                   WebSocket close 1013) and a note in the trace",
  "  --no-auth        with --listen: take connections without a token. Any local process can then",
  "                   connect and start agents (up to --max-agents); a warning says so",
  "  --ready-json     with --listen: once listening, print one JSON line on stdout for the program",
  "                   that started the tap: {address: {ws, http}, tokenFile, trace, traceId, pid}",
  "                   (tokenFile, trace, traceId null when there is none; traceId is the hub's id for",
  "                   the trace when attached at start). Read this, not the messages on stderr",
  "  --ready-fd N     the same line, written to descriptor N (>= 3, then closed) once the tap",
  "                   forwards (stdio: address null) or listens",
  "  --agent-url URL  with --listen: forward each client connection to this remote agent, over its",
  "                   own upstream connection (ws:// or wss://: WebSocket; http:// or https://:",
  "                   Streamable HTTP), instead of spawning a command. An agent that answers 401",
  "                   (it wants a token) is reported on stderr and in the trace, and the client's",
  '                   WebSocket is closed with code 4401 ("the remote agent wants a token (401)")',
  "  --agent-token-file FILE  with --agent-url: send the first line of FILE upstream as",
  "                   Authorization: Bearer TOKEN (on the WebSocket upgrade, or every HTTP request).",
  "                   Never on the command line; FILE must be yours alone (chmod 600): a symbolic",
  "                   link, another user's file or one its group or others can read is refused",
  "",
  "Fault semantics (drop, delay, disconnect, kill, restart, the inspector's retries): docs/faults.md.",
  "",
  "Examples:",
  "  acp-retry-inspector proxy -- npx @zed-industries/claude-code-acp",
  '  acp-retry-inspector proxy --name "claude, repro of #42" -- npx @zed-industries/claude-code-acp',
  "  acp-retry-inspector proxy --fault drop-response:method=session/prompt,count=1 -- my-agent",
  "  acp-retry-inspector proxy --fault restart-agent:method=session/prompt,on=response -- my-agent --store s",
  "  acp-retry-inspector proxy --fault lose-and-retry -- my-agent     # the inspector retries the next prompt",
  "  acp-retry-inspector proxy --listen ws://127.0.0.1:8080 -- acp-retry-inspector demo-agent --store my-store",
  "  acp-retry-inspector proxy --listen ws://127.0.0.1:8080 --trace run.jsonl --max-agents 2 -- my-agent",
  "    then: acp-retry-inspector demo-client --url ws://127.0.0.1:8080/acp --token-file run.jsonl.token",
].join("\n");

/** `acp-retry-inspector proxy`: a drop-in agent command that records the session to a trace file. */
export const proxyCommand: CliCommand = {
  name: "proxy",
  summary: "run an agent behind a recording tap (stdio, or a WebSocket/HTTP front with --listen)",
  help: HELP,
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
