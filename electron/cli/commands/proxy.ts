import { mkdirSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../../shared/trace/record.js";
import { StdioTap } from "../../tap/stdio-tap.js";
import { defaultTraceDir, TRACE_DIR_ENV, traceFileName } from "../../trace/default-trace-path.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import { TraceWriter } from "../../trace/trace-writer.js";
import { type CliCommand, CliError } from "../command.js";
import { TOOL_VERSION } from "../version.js";

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Splits `[--trace FILE] [--] agent args...` into the trace path and the agent command. */
export function parseProxyArgs(args: readonly string[]): { trace?: string; command: string[] } {
  let trace: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") {
      i++;
      break;
    }
    if (a === "--trace") {
      const value = args[++i];
      if (value === undefined) throw new CliError("--trace needs a file path");
      trace = value;
    } else if (a.startsWith("--trace=")) {
      trace = a.slice("--trace=".length);
    } else if (a.startsWith("-")) {
      throw new CliError(`unknown option '${a}' (put the agent command after --)`);
    } else break;
  }
  const command = args.slice(i);
  if (command.length === 0)
    throw new CliError("no agent command: acp-retry-inspector proxy [--trace FILE] -- <agent command...>");
  if (trace === "") throw new CliError("--trace needs a file path");
  return { trace, command };
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector: ${message}\n`);
}

/** `acp-retry-inspector proxy`: a drop-in agent command that records the session to a trace file. */
export const proxyCommand: CliCommand = {
  name: "proxy",
  summary: "run an agent behind a recording stdio tap (use it as the agent command of any ACP client)",
  help: [
    "Usage: acp-retry-inspector proxy [--trace FILE] -- <agent command...>",
    "",
    "Spawns the agent and forwards stdin to it and its stdout back, byte for byte and in order,",
    "recording every line (and the agent's stderr, spawn and exit) to a JSONL trace file.",
    "Signals (SIGINT, SIGTERM, SIGHUP) are forwarded; the exit status is the agent's.",
    "",
    "Options:",
    "  --trace FILE   write the trace here (replaced if it exists). Default: a new file in",
    `                 ${defaultTraceDir()}`,
    `                 (set ${TRACE_DIR_ENV} to change the folder)`,
    "",
    "Example (in an editor's agent settings):",
    "  acp-retry-inspector proxy --trace /tmp/session.jsonl -- npx @zed-industries/claude-code-acp",
  ].join("\n"),
  async run(args) {
    const { trace: explicit, command } = parseProxyArgs(args);
    const startedAt = new Date();
    let path = explicit;
    if (path === undefined) {
      const dir = defaultTraceDir();
      try {
        mkdirSync(dir, { recursive: true });
      } catch {
        // The writer reports the failure when it cannot open the file.
      }
      path = join(dir, traceFileName(startedAt));
      say(`trace: ${path}`);
    }
    const writer = new TraceWriter(
      path,
      {
        format: TRACE_FORMAT,
        version: TRACE_FORMAT_VERSION,
        tool: `acp-retry-inspector ${TOOL_VERSION}`,
        startedAt: startedAt.toISOString(),
        agent: { command, cwd: process.cwd() },
        transport: "stdio",
      },
      { onError: (m) => say(`${m}; still forwarding, without a trace`) },
    );
    const trace = new TraceFanout(new RecordSequencer(), [writer], say);
    const tap = new StdioTap({
      command,
      clientIn: process.stdin,
      clientOut: process.stdout,
      errOut: process.stderr,
      trace,
    });
    const forward = (signal: NodeJS.Signals) => tap.forwardSignal(signal);
    for (const s of FORWARDED_SIGNALS) process.on(s, forward);
    const outcome = await tap.run();
    for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    process.stdin.destroy();
    if (outcome.kind === "spawn-failed") {
      say(outcome.message);
      return outcome.status;
    }
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    if (outcome.signal) {
      // Die of the same signal, so our parent sees what it would have seen without the tap.
      process.kill(process.pid, outcome.signal);
      return 128 + (constants.signals[outcome.signal] ?? 0);
    }
    return outcome.code ?? 1;
  },
};
