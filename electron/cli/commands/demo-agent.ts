import { parseArgs } from "node:util";
import { AGENT_MODE_HELP, AGENT_MODES, type AgentMode } from "../../peers/agent/agent-mode.js";
import { DemoAgent } from "../../peers/agent/demo-agent.js";
import { listenRemote, parseListenUrl } from "../../peers/agent/remote-listener.js";
import { serveStdio } from "../../peers/agent/stdio-host.js";
import { USER_MESSAGE_SHAPES, type UserMessageShape } from "../../peers/agent/user-message-shape.js";
import { defaultDataDir } from "../../peers/default-data-dir.js";
import { TOOL_VERSION } from "../../platform/version.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";

const HELP = `Usage: acp-retry-inspector demo-agent [options]

A reference ACP agent (v1 and v2) that implements the v2 Idempotency Keys RFD end to end, with
durable sessions. Over stdio by default; with --listen, over WebSocket and Streamable HTTP.

Options:
  --store DIR         session store folder (default: ${defaultDataDir("demo-agent")})
  --listen URL        serve remotely, e.g. ws://127.0.0.1:8080 (path defaults to /acp; port 0 picks one);
                      prints "listening ws://... http://..." on stderr
  --mode MODE         key handling (default: correct):
${AGENT_MODES.map((m) => `                        ${m.padEnd(14)} ${AGENT_MODE_HELP[m]}`).join("\n")}
  --turn-ms N         duration of a prompt turn's visible work in ms (default: 1500)
  --fail-inserts N    fail the first N inserts with -32603, as a transient storage error would (default: 0)
  --crash-after-inserts N
                      kill -9 this process right after its Nth insert is flushed, before answering:
                      the "response lost, outcome unknown" case (for crash tests and demos)
  --otel              send OpenTelemetry spans of its own work (one per prompt turn, with children
                      "dedup lookup" and "insert"; v1: "insert" only) with the OpenTelemetry JS SDK to where
                      OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT), _PROTOCOL and _HEADERS say:
                      what proxy --collect-agent-telemetry gives it. A traceparent in the prompt's
                      params._meta becomes the turn's parent. Without the variables, none are sent
  --user-messages SHAPE
                      how inserted prompts are announced: message (one user_message, default) or
                      chunks (only user_message_chunk updates, one per content block, as some v2 agents do)

Examples:
  acp-retry-inspector demo-agent --store agent-store
  acp-retry-inspector demo-agent --listen ws://127.0.0.1:8080 --mode naive`;

function nonNegativeInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CliError(`${name} expects a non-negative integer, got ${value}`);
  return n;
}

/** `acp-retry-inspector demo-agent`: the reference v2 agent with idempotency keys. */
export const demoAgentCommand: CliCommand = {
  name: "demo-agent",
  summary: "reference ACP agent implementing idempotency keys (stdio, WebSocket, HTTP)",
  help: HELP,
  async run(args) {
    let values: Record<string, string | undefined>;
    try {
      values = parseArgs({
        args,
        options: {
          store: { type: "string" },
          listen: { type: "string" },
          mode: { type: "string" },
          "turn-ms": { type: "string" },
          "fail-inserts": { type: "string" },
          "crash-after-inserts": { type: "string" },
          "user-messages": { type: "string" },
          otel: { type: "boolean" },
        },
        strict: true,
        allowPositionals: false,
      }).values as Record<string, string | undefined>;
    } catch (err) {
      throw usageError("demo-agent", err, args);
    }
    const mode = (values.mode ?? "correct") as AgentMode;
    if (!AGENT_MODES.includes(mode)) throw new CliError(`--mode must be one of ${AGENT_MODES.join(", ")}`);
    const userMessages = (values["user-messages"] ?? "message") as UserMessageShape;
    if (!USER_MESSAGE_SHAPES.includes(userMessages))
      throw new CliError(`--user-messages must be one of ${USER_MESSAGE_SHAPES.join(", ")}`);
    const telemetry = values.otel
      ? await (await import("../../peers/agent/otel-turns.js")).startOtelTurns()
      : null;
    const agent = new DemoAgent({
      ...(telemetry && { telemetry }),
      userMessages,
      storeDir: values.store ?? defaultDataDir("demo-agent"),
      mode,
      turnMs: nonNegativeInt("--turn-ms", values["turn-ms"], 1500),
      failInserts: nonNegativeInt("--fail-inserts", values["fail-inserts"], 0),
      crashAfterInserts:
        nonNegativeInt("--crash-after-inserts", values["crash-after-inserts"], 0) || undefined,
    });
    const info = { name: "acp-retry-inspector-demo-agent", version: TOOL_VERSION };
    if (values.listen === undefined) {
      // A tap ends the agent of a closed connection with SIGTERM: send the last spans first.
      if (telemetry) process.once("SIGTERM", () => void telemetry.flush().then(() => process.exit(128 + 15)));
      await serveStdio(agent, info);
      // stdin ended: the client is gone. Turns still running end with the process.
      await telemetry?.flush();
      process.exit(0);
    }
    let where: ReturnType<typeof parseListenUrl>;
    try {
      where = parseListenUrl(values.listen);
    } catch (err) {
      throw new CliError(err instanceof Error ? err.message : String(err));
    }
    const listener = await listenRemote(agent, info, where);
    process.stderr.write(`demo-agent: listening ${listener.wsUrl} ${listener.httpUrl} (mode ${mode})\n`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await listener.close();
    await telemetry?.flush();
    return 0;
  },
};
