import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defaultAgentsFile } from "../../conformance/agent-choices.js";
import { startConformanceBesideHub } from "../../conformance/conformance-beside-hub.js";
import { startHub } from "../../hub/hub-server.js";
import { defaultTracesDir, rendezvousDir, rendezvousPath } from "../../hub-client/hub-paths.js";
import { readRendezvous } from "../../hub-client/rendezvous.js";
import { HubOtel } from "../../otel/hub-otel.js";
import { defaultDataDir } from "../../peers/default-data-dir.js";
import { terminalSafe } from "../../platform/terminal-text.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";
import { openUiLink } from "../open-browser.js";
import { finishOtlpExport, startOtlpExport } from "../otlp-options.js";

const HELP = `Usage: acp-retry-inspector serve [--port N] [--open] [--traces-dir DIR] [--ui-dir DIR] [--ring-size N]
                                 [--ring-bytes N] [--demo] [--agents FILE]
                                 [--otlp URL [--otlp-protocol P] [--otlp-include-prompts]] [-- <agent command...>]

Runs the hub headless: proxies started with \`acp-retry-inspector proxy\` find it through the
rendezvous file and stream their sessions to it; UIs and \`acp-retry-inspector fault\` talk to it.
Prints the UI link on stdout, http://127.0.0.1:PORT/#token=... (the access token is in the
fragment, which the browser keeps to itself), then runs until SIGINT or SIGTERM.

Options:
  --port N          TCP port on 127.0.0.1 (default: a free one). The hub never binds another address.
  --open            Open the UI in a browser (failure to open one is reported, not fatal). The
                    token never goes on a command line: the browser is handed a 0600 local page
                    in the rendezvous folder that redirects to the link, deleted after 30 s.
  --traces-dir DIR  Where each proxy's trace is written (default: ${defaultTracesDir()})
  --ui-dir DIR      Serve this UI build (index.html + assets). Default: the renderer built beside
                    this CLI (dist/renderer); without one the hub serves a placeholder page.
  --ring-size N     Events kept in memory for late subscribers (default 50000).
  --ring-bytes N    Bytes of events kept in memory for late subscribers (default 64MiB); a number
                    of bytes, or with a suffix KiB, MiB or GiB (64MiB). The oldest events go first;
                    a UI that fell behind them is told so and the trace files still hold them.
  --demo            Also run the built-in demo: demo-agent behind a tap reporting to this hub, an
                    in-process demo client and the RFD scenarios, driven from the UI (docs/demo.md).
  --demo-turn-ms N  The demo agent's turn length (default 1500, readable).
  --demo-timeout-ms N  The demo client's wait for an answer before it retries (default 3000).
  --demo-dir DIR    The demo's agent stores and files (default: ${defaultDataDir("demo")})
  --agents FILE     The agents the UI's Conformance tab may run the suite against (default:
                    ${defaultAgentsFile()}, if it exists; format in docs/conformance.md).
  --otlp URL        Also export every tap's session (as the hub receives it) as OpenTelemetry spans
                    to this OTLP/HTTP collector (http:// or https://; /v1/traces is appended unless
                    the path ends with it; it may be remote: it is your collector). Without the
                    flag, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is used
                    when set; the flag wins. Batched, bounded queue; spans that do not fit are
                    dropped and counted on stderr. A tap's open spans end when it detaches.
                    docs/otel.md
  --otlp-protocol P http/protobuf (default) or http/json; else OTEL_EXPORTER_OTLP_PROTOCOL
  --otlp-include-prompts  Also export each submission's prompt preview (off: no prompt text leaves)
  -- <command...>   One more agent for the Conformance tab: this command, run in this directory.
                    The tab also offers the built-in demo agent in each mode. A UI only picks
                    among these; it can never name a command itself.

The rendezvous file (port, token and link, mode 0600) is ${rendezvousPath()}
(override the folder with ACP_RETRY_INSPECTOR_RUNTIME_DIR); \`fault\` and proxies read it.`;

/** The renderer built beside the CLI bundle (`dist/cli.js` -> `dist/renderer`), when there is one. */
export function bundledUiDir(moduleUrl = import.meta.url): string | undefined {
  const dir = join(dirname(fileURLToPath(moduleUrl)), "renderer");
  return existsSync(join(dir, "index.html")) ? dir : undefined;
}

function positiveInt(name: string, v: string | undefined, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max) throw new CliError(`${name} must be an integer from 0 to ${max}`);
  return n;
}

const BYTE_UNITS: Record<string, number> = { "": 1, b: 1, kib: 1 << 10, mib: 1 << 20, gib: 1 << 30 };

/** A byte count such as `67108864` or `64MiB` (suffixes KiB, MiB, GiB), from 1 byte to 64 GiB. */
export function byteSize(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\s*([a-z]*)$/i.exec(v.trim());
  const unit = m && BYTE_UNITS[(m[2] as string).toLowerCase()];
  const n = m && unit ? Number(m[1]) * unit : Number.NaN;
  if (!(n >= 1 && n <= 64 * 2 ** 30))
    throw new CliError(`${name} must be a size from 1 byte to 64GiB, such as 67108864 or 64MiB`);
  return n;
}

/** `acp-retry-inspector serve`: runs the hub until interrupted. */
export const serveCommand: CliCommand = {
  name: "serve",
  summary: "run the hub headless and print its UI URL",
  help: HELP,
  async run(args) {
    let values: Record<string, string | boolean | undefined>;
    const dashes = args.indexOf("--");
    const agentCommand = dashes < 0 ? [] : args.slice(dashes + 1);
    if (dashes >= 0 && agentCommand.length === 0) throw new CliError(`-- needs an agent command\n\n${HELP}`);
    try {
      values = parseArgs({
        args: dashes < 0 ? args : args.slice(0, dashes),
        options: {
          port: { type: "string" },
          open: { type: "boolean" },
          "traces-dir": { type: "string" },
          "ui-dir": { type: "string" },
          "ring-size": { type: "string" },
          "ring-bytes": { type: "string" },
          demo: { type: "boolean" },
          "demo-turn-ms": { type: "string" },
          "demo-timeout-ms": { type: "string" },
          "demo-dir": { type: "string" },
          agents: { type: "string" },
          otlp: { type: "string" },
          "otlp-protocol": { type: "string" },
          "otlp-include-prompts": { type: "boolean" },
        },
        strict: true,
        allowPositionals: false,
      }).values;
    } catch (err) {
      throw usageError("serve", err, args, HELP);
    }
    const port = positiveInt("--port", values.port as string | undefined, 65_535);
    const ringSize = positiveInt("--ring-size", values["ring-size"] as string | undefined, 10_000_000);
    const ringBytes = byteSize("--ring-bytes", values["ring-bytes"] as string | undefined);
    const demoTurnMs = positiveInt("--demo-turn-ms", values["demo-turn-ms"] as string | undefined, 600_000);
    const demoTimeoutMs = positiveInt(
      "--demo-timeout-ms",
      values["demo-timeout-ms"] as string | undefined,
      600_000,
    );
    const path = rendezvousPath();
    const existing = readRendezvous(path);
    if (existing.kind === "live")
      throw new CliError(
        `a hub is already running (pid ${existing.hub.pid}) at http://127.0.0.1:${existing.hub.port}/`,
        1,
      );
    if (existing.kind === "untrusted") throw new CliError(existing.reason, 1);
    if (existing.kind === "stale")
      process.stderr.write(`acp-retry-inspector: replacing the stale rendezvous file ${path}\n`);
    const say = (m: string) => process.stderr.write(`acp-retry-inspector: ${m}\n`);
    const sayOtlp = (m: string) => say(terminalSafe(m));
    const otel = await startOtlpExport(
      {
        ...(values.otlp !== undefined && { url: values.otlp as string }),
        ...(values["otlp-protocol"] !== undefined && { protocol: values["otlp-protocol"] as string }),
        includePrompts: values["otlp-include-prompts"] === true,
      },
      sayOtlp,
    );
    const hubOtel = otel
      ? new HubOtel(otel, { includePrompts: values["otlp-include-prompts"] === true }, sayOtlp)
      : null;
    const tracesDir = (values["traces-dir"] as string | undefined) ?? defaultTracesDir();
    const uiDir = (values["ui-dir"] as string | undefined) ?? bundledUiDir();
    const hub = await startHub({
      tracesDir,
      rendezvousPath: path,
      ...(port !== undefined && { port }),
      ...(ringSize !== undefined && ringSize > 0 && { ringSize }),
      ...(ringBytes !== undefined && { ringBytes }),
      ...(uiDir !== undefined && { staticDir: uiDir }),
      ...(hubOtel && { tapWatchers: [hubOtel] }),
    }).catch((err: NodeJS.ErrnoException) => {
      throw new CliError(`cannot start the hub: ${err.code ?? err.message}`, 1);
    });
    process.stdout.write(`${hub.url}\n`);
    process.stderr.write(
      `acp-retry-inspector: hub ${hub.hubId} on 127.0.0.1:${hub.port}, traces in ${tracesDir}\n`,
    );
    const cliPath = realpathSync(process.argv[1] ?? "");
    let stopDemo = async () => {};
    if (values.demo) {
      // In the background: the hub serves (and stops on a signal) while the demo agent comes up.
      const { startDemoBesideHub } = await import("../../demo/demo-beside-hub.js");
      stopDemo = startDemoBesideHub(hub, {
        cliPath,
        dataDir: (values["demo-dir"] as string | undefined) ?? defaultDataDir("demo"),
        turnMs: demoTurnMs,
        attemptTimeoutMs: demoTimeoutMs,
        log: say,
        onStarted: (d) => say(`demo ${d.status().state}, agent mode ${d.status().mode}`),
      });
    }
    const stopConformance = startConformanceBesideHub(hub, {
      cliPath,
      ...(agentCommand.length > 0 && { argvCommand: agentCommand }),
      ...(values.agents !== undefined && { agentsFile: values.agents as string }),
      log: say,
    });
    const opened = values.open ? openUiLink(hub.url, { dir: rendezvousDir(), onError: say }) : undefined;
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    opened?.remove();
    await Promise.all([stopDemo(), stopConformance()]);
    await hub.close();
    hubOtel?.finishAll();
    await finishOtlpExport(otel, sayOtlp);
    return 0;
  },
};
