import { rmSync } from "node:fs";
import { Socket } from "node:net";
import { constants } from "node:os";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from "../../../shared/trace/record.js";
import { checkTapName, deriveTapName } from "../../../shared/trace/tap-name.js";
import { rendezvousPath } from "../../hub-client/hub-paths.js";
import { readRendezvous } from "../../hub-client/rendezvous.js";
import { OtelSink } from "../../otel/otel-sink.js";
import { OTLP_ENV } from "../../otel/otlp-endpoint.js";
import { TOOL_VERSION } from "../../platform/version.js";
import { faultArgSyntaxLines, parseFaultArg } from "../../tap/faults/fault-arg.js";
import { FaultInjector } from "../../tap/faults/fault-injector.js";
import { createHubLink, type HubLink } from "../../tap/hub-link/hub-link.js";
import { HubSink } from "../../tap/hub-link/hub-sink.js";
import { isAgentUrl } from "../../tap/remote/agent-url.js";
import { FRONT_TOKEN_ENV, newFrontToken, tokenFilePath } from "../../tap/remote/front-token.js";
import { DEFAULT_MAX_AGENTS } from "../../tap/remote/listen-url.js";
import { readUpstreamToken } from "../../tap/remote/upstream-token.js";
import { StdioTap } from "../../tap/stdio/stdio-tap.js";
import { defaultTraceDir, newDefaultTracePath, TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { freeTracePath } from "../../trace/private-files.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import { TraceWriter } from "../../trace/trace-writer.js";
import { type CliCommand, CliError } from "../command.js";
import { finishOtlpExport, type OtlpStart, startOtlpExport } from "../otlp-options.js";
import { terminalSafe } from "../report/terminal-text.js";

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
/**
 * When a hub is already running, how long the proxy waits for its armed rules before it starts the
 * session, so rules armed before the session apply from its first frame. Never waits without a hub.
 */
export const HUB_STARTUP_WAIT_MS = 500;

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
  command: string[];
}

const USAGE =
  "acp-retry-inspector proxy [--name NAME] [--trace FILE] [--fault RULE]... [--no-hub] [--otlp URL [--otlp-protocol P] [--otlp-include-prompts]] [--collect-agent-telemetry] [--listen URL [--agent-url URL [--agent-token-file FILE]] [--max-agents N] [--no-auth]] -- <agent command...>";

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
    } else if (name === "--max-agents") {
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

/** The trace, the fault rules and the hub link one proxy run shares. */
interface ProxyRecorder {
  readonly trace: TraceFanout;
  /** The `--otlp` span export, when asked for. */
  readonly otel: OtlpStart | null;
  readonly faults: FaultInjector;
  readonly link: HubLink | null;
  /** Resolves once a running hub's rules arrived (at most `HUB_STARTUP_WAIT_MS`), at once without a live hub. */
  readonly hubReady: Promise<void>;
}

/** `null` for `path`: no trace file (the folder could not be used, and the user was told). */
function startRecorder(
  parsed: ProxyArgs,
  header: TraceHeader,
  path: string | null,
  rules: FaultRule[],
  otel: OtlpStart | null,
): ProxyRecorder {
  const writers =
    path === null
      ? []
      : [new TraceWriter(path, header, { onError: (m) => say(`${m}; still forwarding, without a trace`) })];
  const trace = new TraceFanout(new RecordSequencer(), writers, say);
  if (otel)
    trace.attach(new OtelSink(header, otel, { includePrompts: parsed.otlpIncludePrompts === true }, say));
  const faults = new FaultInjector(trace);
  if (rules.length > 0) faults.armLocal(rules);
  let link: HubLink | null = null;
  let hubReady = Promise.resolve();
  if (!parsed.noHub) {
    const found = readRendezvous(rendezvousPath());
    // the hub link will not use it either (hub-finder.ts); say why once, here
    if (found.kind === "untrusted") say(`${found.reason}; this tap links to no hub through it`);
    const live = found.kind === "live";
    let ready = () => {};
    if (live) {
      hubReady = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, HUB_STARTUP_WAIT_MS);
        ready = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    link = createHubLink({ header, holdWhileDetached: false });
    trace.attach(new HubSink(link));
    link.onFaultRules((hubRules) => {
      faults.setHubRules(hubRules);
      ready();
    });
    link.onAttach((attached, traceId) =>
      trace.emit({
        type: "note",
        level: "info",
        text: attached
          ? `attached to the hub as trace ${traceId ?? "?"}`
          : "the hub went away; still forwarding",
      }),
    );
  }
  return { trace, faults, otel, link, hubReady };
}

/** `acp-retry-inspector proxy`: a drop-in agent command that records the session to a trace file. */
export const proxyCommand: CliCommand = {
  name: "proxy",
  summary: "run an agent behind a recording tap (stdio, or a WebSocket/HTTP front with --listen)",
  help: HELP,
  async run(args) {
    const parsed = parseProxyArgs(args);
    // Read first: a refused token file is a usage error before any trace file exists.
    const upstreamAuth = upstreamToken(parsed.agentTokenFile);
    const rules = (parsed.faults ?? []).map((arg, i) => {
      const rule = parseFaultArg(arg, i + 1);
      if (typeof rule === "string") throw new CliError(rule);
      return rule;
    });
    const { command } = parsed;
    const startedAt = new Date();
    let path: string | null = parsed.trace ?? null;
    if (parsed.trace !== undefined) {
      path = freeTracePath(parsed.trace);
      if (path !== parsed.trace)
        say(
          `trace: ${parsed.trace} already exists (an earlier trace, or a proxy still running with the same --trace); it is never replaced: writing ${path} instead`,
        );
    }
    if (parsed.trace === undefined) {
      try {
        path = newDefaultTracePath(startedAt);
        say(`trace: ${path}`);
      } catch (err) {
        say(`${(err as Error).message}; still forwarding, without a trace`);
      }
    }
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool: `acp-retry-inspector ${TOOL_VERSION}`,
      startedAt: startedAt.toISOString(),
      ...(command.length > 0 && { agent: { command, cwd: process.cwd() } }),
      transport: parsed.listen === undefined ? "stdio" : "ws+http",
      name:
        parsed.name ??
        deriveTapName({ command, cwd: process.cwd(), ...(parsed.agentUrl && { url: parsed.agentUrl }) }),
      tapPid: process.pid,
      ...(parsed.replayOf && { replayOf: parsed.replayOf }),
    };
    const otel = startOtlpExport(
      {
        ...(parsed.otlp !== undefined && { url: parsed.otlp }),
        ...(parsed.otlpProtocol !== undefined && { protocol: parsed.otlpProtocol }),
        includePrompts: parsed.otlpIncludePrompts === true,
      },
      say,
    );
    if (parsed.listen !== undefined)
      return runFront(parsed, parsed.listen, header, path, rules, otel, upstreamAuth);
    const { trace, faults, hubReady } = startRecorder(parsed, header, path, rules, otel);
    await hubReady;
    const clientNotes =
      parsed.clientNotesFd === undefined ? null : readClientNotes(parsed.clientNotesFd, trace);
    const telemetry = parsed.collectAgentTelemetry ? await startAgentTelemetry(trace, header) : null;
    const tap = new StdioTap({
      command,
      ...(telemetry && { env: telemetry.envFor(1) }),
      clientIn: process.stdin,
      clientOut: process.stdout,
      errOut: process.stderr,
      trace,
      faults,
    });
    const forward = (signal: NodeJS.Signals) => tap.forwardSignal(signal);
    for (const s of FORWARDED_SIGNALS) process.on(s, forward);
    const outcome = await tap.run();
    for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    process.stdin.destroy();
    clientNotes?.destroy();
    await telemetry?.close();
    if (outcome.kind === "spawn-failed") {
      say(outcome.message);
      await finishOtlpExport(otel, say);
      return outcome.status;
    }
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    await finishOtlpExport(otel, say);
    if (outcome.signal) {
      // Die of the same signal, so our parent sees what it would have seen without the tap.
      process.kill(process.pid, outcome.signal);
      return 128 + (constants.signals[outcome.signal] ?? 0);
    }
    return outcome.code ?? 1;
  },
};

/** `proxy --listen`: serves remote clients until SIGINT/SIGTERM/SIGHUP, then ends every connection. */
async function runFront(
  parsed: ProxyArgs,
  listen: string,
  header: TraceHeader,
  path: string | null,
  rules: FaultRule[],
  otel: OtlpStart | null,
  upstreamAuth: { token?: string },
): Promise<number> {
  const { parseListenUrl } = await import("../../tap/remote/listen-url.js");
  const { startRemoteFront } = await import("../../tap/remote/remote-front.js");
  let where: ReturnType<typeof parseListenUrl>;
  try {
    where = parseListenUrl(listen);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const { trace, faults, hubReady } = startRecorder(parsed, header, path, rules, otel);
  await hubReady;
  const telemetry = parsed.collectAgentTelemetry ? await startAgentTelemetry(trace, header) : null;
  const agent =
    parsed.agentUrl !== undefined
      ? { kind: "url" as const, url: parsed.agentUrl, ...upstreamAuth }
      : {
          kind: "command" as const,
          command: parsed.command,
          cwd: process.cwd(),
          ...(telemetry && { env: (conn: number) => telemetry.envFor(conn) }),
        };
  if (agent.kind === "url")
    trace.emit({ type: "note", level: "info", text: `forwarding to the agent at ${agent.url}` });
  const token = frontToken(parsed);
  const maxAgents = parsed.maxAgents ?? DEFAULT_MAX_AGENTS;
  let front: Awaited<ReturnType<typeof startRemoteFront>>;
  try {
    front = await startRemoteFront(
      where,
      { agent, trace, faults, errOut: process.stderr },
      { token: token?.value ?? null, maxAgents },
    );
  } catch (err) {
    say(`cannot listen on ${listen}: ${(err as Error).message}`);
    await telemetry?.close();
    await trace.close();
    await finishOtlpExport(otel, say);
    return 1;
  }
  const tokenFile = token?.generated ? await publishToken(token.value, path) : null;
  say(`listening ${front.wsUrl} (WebSocket) and ${front.httpUrl} (Streamable HTTP)`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    for (const s of FORWARDED_SIGNALS) process.once(s, () => resolve(s));
  });
  trace.emit({ type: "note", level: "info", text: `received ${signal}; closing every connection` });
  await front.close();
  await telemetry?.close();
  await trace.close();
  if (tokenFile !== null) rmSync(tokenFile, { force: true });
  await finishOtlpExport(otel, say);
  return 0;
}

/** Records each line read from descriptor `fd` (the replay's remarks) as an info note, bounded to 4 KiB a line; destroy it when the session ends. */
function readClientNotes(fd: number, trace: TraceFanout): { destroy(): void } | null {
  let stream: Socket;
  try {
    // A socket, not an fs stream: an fs read of a pipe holds a thread, and the process, until it ends.
    stream = new Socket({ fd, readable: true, writable: false });
    stream.setEncoding("utf8");
  } catch (err) {
    say(`--client-notes-fd ${fd}: ${(err as Error).message}`);
    return null;
  }
  let rest = "";
  stream.on("data", (chunk: string | Buffer) => {
    const lines = (rest + String(chunk)).split("\n");
    rest = (lines.pop() ?? "").slice(0, 4096);
    for (const line of lines)
      if (line !== "") trace.emit({ type: "note", level: "info", text: line.slice(0, 4096) });
  });
  stream.on("error", () => {});
  return stream;
}

/** `{token}` from `--agent-token-file` (a usage error when the file is not this user's alone or holds no token), or `{}`. */
function upstreamToken(file: string | undefined): { token?: string } {
  if (file === undefined) return {};
  try {
    return { token: readUpstreamToken(file) };
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** The running `--collect-agent-telemetry` receiver, as the two run paths use it. */
interface AgentTelemetry {
  /** The environment for the agent serving connection `conn` (its own token). */
  envFor(conn: number): NodeJS.ProcessEnv;
  /** Stops the receiver and says on stderr what it received. */
  close(): Promise<void>;
}

/** Starts the receiver, says where it listens, and notes it in the trace. */
async function startAgentTelemetry(trace: TraceFanout, header: TraceHeader): Promise<AgentTelemetry> {
  const { AgentTelemetryReceiver } = await import("../../agent-telemetry/otlp-receiver.js");
  const receiver = await AgentTelemetryReceiver.start(trace);
  const service = (header.name ?? "agent").split(" @ ", 1)[0] ?? "agent";
  say(
    `agent telemetry: receiving OTLP/HTTP on ${receiver.endpoint}; the agent gets OTEL_EXPORTER_OTLP_ENDPOINT and a token in OTEL_EXPORTER_OTLP_HEADERS`,
  );
  trace.emit({
    type: "note",
    level: "info",
    text: `collecting the agent's telemetry on ${receiver.endpoint}`,
  });
  let warned = false;
  return {
    envFor(conn) {
      const { env, replaced } = receiver.envFor(conn, process.env, service);
      if (replaced.length > 0 && !warned) {
        warned = true;
        say(`agent telemetry: replaced the inherited ${replaced.join(", ")} for the agent`);
      }
      return env;
    },
    async close() {
      await receiver.close();
      say(receiver.describe());
    },
  };
}

/** The front's token: from the environment (then taken out of it: agents must not inherit it), or a fresh one; `null` with `--no-auth`. */
function frontToken(parsed: ProxyArgs): { value: string; generated: boolean } | null {
  const given = process.env[FRONT_TOKEN_ENV];
  delete process.env[FRONT_TOKEN_ENV];
  if (parsed.noAuth) {
    say(
      `--no-auth: this front takes connections without a token; any local process can connect and start agents (at most ${parsed.maxAgents ?? DEFAULT_MAX_AGENTS} at a time)`,
    );
    return null;
  }
  if (given !== undefined && given !== "") {
    say(`token: from ${FRONT_TOKEN_ENV}`);
    return { value: given, generated: false };
  }
  return { value: newFrontToken(), generated: true };
}

/** Prints a generated token once and writes it (0600) next to the trace; returns the file written, if any. */
async function publishToken(token: string, tracePath: string | null): Promise<string | null> {
  const { writePrivateFile } = await import("../../trace/private-files.js");
  const file = tracePath === null ? null : tokenFilePath(tracePath);
  let where = "not written to a file: there is no trace file";
  let written: string | null = null;
  if (file !== null) {
    try {
      writePrivateFile(file, `${token}\n`);
      where = `also in ${file}, mode 0600, removed when the front stops`;
      written = file;
    } catch (err) {
      where = `not written to a file: ${(err as Error).message}`;
    }
  }
  say(`token: ${token} (clients send "Authorization: Bearer <token>"; ${where})`);
  return written;
}
