/**
 * The one way to run a tap in this process: stdio (one client on the given streams, one agent) or a
 * remote front (`listen`: WebSocket and Streamable HTTP, an agent or an upstream per connection),
 * with its trace file, local fault rules, hub link, span export and agent telemetry. `proxy` is
 * argument parsing around it; the demo and the conformance suite read its ready line
 * (`proxy --ready-json`, ready-line.ts) from a child tap.
 */
import { rmSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { FaultRule } from "../../shared/faults/fault-rule.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from "../../shared/trace/record.js";
import { deriveTapName } from "../../shared/trace/tap-name.js";
import type { SpanExport } from "../otel/span-export.js";
import { TOOL_VERSION } from "../platform/version.js";
import { newDefaultTracePath } from "../trace/default-trace-path.js";
import { freeTracePath } from "../trace/private-files.js";
import { readClientNotes } from "./client-notes.js";
import { type FrontAuth, frontToken, publishToken } from "./front-auth.js";
import type { TapReady } from "./ready-line.js";
import { DEFAULT_MAX_AGENTS, type ListenAddress, parseListenUrl } from "./remote/listen-url.js";
import { StdioTap, type TapOutcome } from "./stdio/stdio-tap.js";
import { startRecorder, type TapRecorder } from "./tap-recorder.js";
import { startAgentTelemetry } from "./tap-telemetry.js";

/** How to start a tap. */
export interface TapOptions {
  /** The agent command (program and arguments); empty only with `agentUrl`. */
  readonly command: readonly string[];
  /** The agents' folder, recorded in the header. Default: this process's. */
  readonly cwd?: string;
  /** The trace file asked for; taken as given when free, else FILE-2, ... (said). Default: a new file in the traces folder. */
  readonly trace?: string;
  /** Local fault rules, first given, first applied. */
  readonly faults?: readonly FaultRule[];
  /** Never look for a hub. */
  readonly noHub?: boolean;
  /** What the hub and the UI call this tap. Default: derived from the command (or URL) and the folder. */
  readonly name?: string;
  /** A span export being started (`--otlp`); the caller closes it after `done`. */
  readonly spanExport?: Promise<SpanExport | null> | null;
  /** Export the prompt preview too. */
  readonly includePrompts?: boolean;
  /** Receive the agent's own OTLP spans and record them. */
  readonly collectAgentTelemetry?: boolean;
  /** The header's `replayOf` (set by `replay`). */
  readonly replayOf?: { readonly trace: string; readonly sha256: string };
  /** Stdio only: each line read from this descriptor becomes an info note. */
  readonly clientNotesFd?: number;
  /** The tap's own messages (one line each; the caller makes them safe for its terminal). */
  readonly say: (message: string) => void;
  /** Stdio: the client's streams. Ignored with `listen`. */
  readonly clientIn?: Readable;
  readonly clientOut?: Writable;
  /** Where the agents' stderr goes. */
  readonly errOut: Writable;
  /** Serve remote clients on this `ws://` or `http://` loopback URL instead of stdio. */
  readonly listen?: string;
  /** With `listen`: forward each connection to this remote agent instead of spawning `command`. */
  readonly agentUrl?: string;
  /** The bearer token sent to `agentUrl`. */
  readonly agentToken?: string;
  /** With `listen`: how clients authenticate. Default: a fresh token, written next to the trace. */
  readonly auth?: FrontAuth;
  /** With `listen`: client connections served at once. */
  readonly maxAgents?: number;
}

/** Where a running `listen` tap serves. */
export interface TapAddress {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly ws: string;
  /** `http://127.0.0.1:PORT/acp` */
  readonly http: string;
}

/** How a tap ended: the stdio agent's end, or `stopped` (a front stopped by `signal`/`stop`). */
export type TapEnd = TapOutcome | { readonly kind: "stopped" };

/** A running tap. */
export interface RunningTap extends TapReady {
  /** Resolves when the tap ended and its trace is complete (stdio: after the client's stream was flushed). */
  readonly done: Promise<TapEnd>;
  /** Stdio: passes the signal on to the agent (recorded). Listen: stops the front (recorded). */
  signal(signal: NodeJS.Signals): void;
  /** `signal("SIGTERM")`, then waits for `done`. */
  stop(): Promise<TapEnd>;
}

/** A start option that cannot be used (a usage error; nothing was started). */
export class TapOptionError extends Error {}

/** Starts a tap; resolves once it forwards (stdio) or listens (`listen`), rejects when it cannot listen. */
export async function startTap(o: TapOptions): Promise<RunningTap> {
  const { say } = o;
  const cwd = o.cwd ?? process.cwd();
  const startedAt = new Date();
  const path = tracePath(o.trace, startedAt, say);
  const header: TraceHeader = {
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: `acp-retry-inspector ${TOOL_VERSION}`,
    startedAt: startedAt.toISOString(),
    ...(o.command.length > 0 && { agent: { command: [...o.command], cwd } }),
    transport: o.listen === undefined ? "stdio" : "ws+http",
    name: o.name ?? deriveTapName({ command: o.command, cwd, ...(o.agentUrl && { url: o.agentUrl }) }),
    tapPid: process.pid,
    ...(o.replayOf && { replayOf: o.replayOf }),
  };
  let where: ListenAddress | undefined;
  if (o.listen !== undefined) {
    try {
      where = parseListenUrl(o.listen);
    } catch (err) {
      throw new TapOptionError((err as Error).message);
    }
  }
  const recorder = startRecorder({
    header,
    path,
    rules: o.faults ?? [],
    spanExport: o.spanExport ?? null,
    includePrompts: o.includePrompts === true,
    noHub: o.noHub === true,
    say,
  });
  await recorder.hubReady;
  const { trace, faults } = recorder;
  if (where === undefined) {
    const clientNotes = o.clientNotesFd === undefined ? null : readClientNotes(o.clientNotesFd, trace, say);
    const telemetry = o.collectAgentTelemetry ? await startAgentTelemetry(trace, header, say) : null;
    const clientOut = o.clientOut ?? process.stdout;
    const tap = new StdioTap({
      command: o.command,
      ...(o.cwd !== undefined && { cwd: o.cwd }),
      ...(telemetry && { env: telemetry.envFor(1) }),
      clientIn: o.clientIn ?? process.stdin,
      clientOut,
      errOut: o.errOut,
      trace,
      faults,
    });
    const done = tap.run().then(async (outcome): Promise<TapEnd> => {
      clientNotes?.destroy();
      await telemetry?.close();
      if (outcome.kind === "spawn-failed") say(outcome.message);
      else await new Promise<void>((resolve) => clientOut.write("", () => resolve()));
      return outcome;
    });
    return {
      pid: process.pid,
      trace: path,
      get traceId() {
        return recorder.traceId();
      },
      address: null,
      tokenFile: null,
      done,
      signal: (s) => tap.forwardSignal(s),
      async stop() {
        tap.forwardSignal("SIGTERM");
        return done;
      },
    };
  }
  return startFront(o, where, header, path, recorder);
}

/** The trace file to write: the one asked for when free, else the next free name, else a new default one; null when none can be. */
function tracePath(asked: string | undefined, startedAt: Date, say: (m: string) => void): string | null {
  if (asked !== undefined) {
    const path = freeTracePath(asked);
    if (path !== asked)
      say(
        `trace: ${asked} already exists (an earlier trace, or a proxy still running with the same --trace); it is never replaced: writing ${path} instead`,
      );
    return path;
  }
  try {
    const path = newDefaultTracePath(startedAt);
    say(`trace: ${path}`);
    return path;
  } catch (err) {
    say(`${(err as Error).message}; still forwarding, without a trace`);
    return null;
  }
}

/** The `listen` half of `startTap`: the remote front, its token and its stop. */
async function startFront(
  o: TapOptions,
  where: ListenAddress,
  header: TraceHeader,
  path: string | null,
  recorder: TapRecorder,
): Promise<RunningTap> {
  const { say } = o;
  const { trace, faults } = recorder;
  const { startRemoteFront } = await import("./remote/remote-front.js");
  const telemetry = o.collectAgentTelemetry ? await startAgentTelemetry(trace, header, say) : null;
  const agent =
    o.agentUrl !== undefined
      ? { kind: "url" as const, url: o.agentUrl, ...(o.agentToken !== undefined && { token: o.agentToken }) }
      : {
          kind: "command" as const,
          command: o.command,
          cwd: o.cwd ?? process.cwd(),
          ...(telemetry && { env: (conn: number) => telemetry.envFor(conn) }),
        };
  if (agent.kind === "url")
    trace.emit({ type: "note", level: "info", text: `forwarding to the agent at ${agent.url}` });
  const token = frontToken(o.auth ?? "generate", o.maxAgents, say);
  let front: Awaited<ReturnType<typeof startRemoteFront>>;
  try {
    front = await startRemoteFront(
      where,
      { agent, trace, faults, errOut: o.errOut },
      { token: token?.value ?? null, maxAgents: o.maxAgents ?? DEFAULT_MAX_AGENTS },
    );
  } catch (err) {
    await telemetry?.close();
    await trace.close();
    throw new Error(`cannot listen on ${o.listen}: ${(err as Error).message}`);
  }
  const tokenFile = token?.generated ? publishToken(token.value, path, say) : null;
  say(`listening ${front.wsUrl} (WebSocket) and ${front.httpUrl} (Streamable HTTP)`);
  let stopping: Promise<TapEnd> | null = null;
  const stop = (signal?: NodeJS.Signals): Promise<TapEnd> => {
    stopping ??= (async (): Promise<TapEnd> => {
      const why = signal === undefined ? "stopped" : `received ${signal}`;
      trace.emit({ type: "note", level: "info", text: `${why}; closing every connection` });
      await front.close();
      await telemetry?.close();
      await trace.close();
      if (tokenFile !== null) rmSync(tokenFile, { force: true });
      return { kind: "stopped" };
    })();
    return stopping;
  };
  let ended: (end: TapEnd) => void = () => {};
  const done = new Promise<TapEnd>((resolve) => {
    ended = resolve;
  });
  return {
    pid: process.pid,
    trace: path,
    get traceId() {
      return recorder.traceId();
    },
    address: { ws: front.wsUrl, http: front.httpUrl },
    tokenFile,
    done,
    signal: (s) => void stop(s).then(ended),
    stop: () =>
      stop().then((end) => {
        ended(end);
        return end;
      }),
  };
}
