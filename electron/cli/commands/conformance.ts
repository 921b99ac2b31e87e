import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CASE_NAMES, isCaseName } from "../../../shared/conformance/case-catalogue.js";
import type { CaseName, ConformanceProgress } from "../../../shared/conformance/conformance-result.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { type CliCommand, CliError, splitAgentCommand } from "../command.js";
import { usageError } from "../command-args.js";
import { CLIENT_HELP } from "./conformance-client-help.js";
import { STRESS_HELP } from "./conformance-stress-help.js";

const HELP = `Usage: acp-retry-inspector conformance [options] (-- <agent command...> | --url URL)
       acp-retry-inspector conformance --client [options] -- <client command with {agent}...>

Runs scripted client sessions against an ACP v2 agent and checks each rule of the Idempotency Keys
RFD. Every connection goes through the recording tap (proxy -- <agent> on stdio; for a URL, a
proxy --listen --agent-url URL per case), so each case leaves a trace that the analyzer judges and
the app can open. Cases:
${CASE_NAMES.map((n) => `  ${n}`).join("\n")}

Options:
  -- COMMAND...            the agent command (spawned once or more per case, same cwd and environment)
  --url URL                a remote agent: ws://... (WebSocket) or http://... (Streamable HTTP)
  --restart-cmd CMD        with --url: a shell command that kills and restarts the remote agent
                           (without it, retry-after-restart is skipped)
  --only NAME              run only this case (repeatable, or comma-separated)
  --json                   print the report as JSON instead of the table
  --junit FILE             also write a JUnit XML report to FILE
  --tck-json FILE          also write the report in acp-tck's --report-json shape to FILE
                           (requirement ids and tiers, outcomes with transcripts of failing frames),
                           to merge with the official ACP conformance kit's report
  --traces-dir DIR         where the traces go: a new or empty folder (default: a new folder in the
                           private per-user trace folder; printed). Trace files are mode 0600
  --cwd DIR                working directory of the agent and its sessions (default: the current one)
  --case-timeout-ms N      time limit of one case (default: 20000), not counting the start of its
                           connections (agent spawn and initialize: bounded on their own, same limit,
                           at least 60000; the probe's at least 15000)
  --suite-timeout-ms N     time limit of the whole run (default: 300000)
  --concurrency N          cases run at the same time (default: 3)
  --client-timeout MS      (--client) the client's attempt timeout: {timeoutMs} in the client command
                           becomes it (default 5000); without {timeoutMs}, how long the client waits
                           before it resends (default 30000, demo-client's). A run whose answer is
                           dropped waits this long plus --case-timeout-ms
  --verbose                pass the agent's (for a URL, the tap's) stderr through, prefixed with the case name
  --quiet                  no progress lines on stderr

${CLIENT_HELP}

Exit status: 0 every required case passed (skips allowed); 1 a required case failed or the agent
did not answer initialize; 2 usage error; 3 the agent does not support v2 (no case ran).

Examples:
  acp-retry-inspector conformance -- acp-retry-inspector demo-agent --store conf-store
  acp-retry-inspector conformance --junit conformance.xml -- npx my-acp-agent
  acp-retry-inspector conformance --junit c.xml --tck-json idem-tck.json -- npx my-acp-agent
  acp-retry-inspector conformance --url ws://127.0.0.1:8080/acp --restart-cmd "systemctl restart my-agent"
  acp-retry-inspector conformance --stress 200 --seed 7 -- acp-retry-inspector demo-agent --store s

${STRESS_HELP}`;

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} expects a positive integer, got ${value}`);
  return n;
}

function progressLine(event: ConformanceProgress, total: number, done: { n: number }): string | undefined {
  switch (event.kind) {
    case "probe":
      return event.probe.status === "v2"
        ? `agent speaks v2${event.probe.info?.name ? ` (${event.probe.info.name})` : ""}; running ${total} case(s)`
        : `${event.probe.problem ?? "the agent cannot run v2 sessions"}`;
    case "case-start":
      return `start ${event.name}`;
    case "case-end": {
      const r = event.result;
      // A case that never started has nothing to add to the probe's one line.
      if (r.status === "not-run") return undefined;
      done.n++;
      const info = r.required ? "" : " (informative)";
      return `[${done.n}/${total}] ${r.name}: ${r.status.toUpperCase()}${info} in ${(r.durationMs / 1000).toFixed(1)} s: ${r.reason}`;
    }
  }
}

/** `acp-retry-inspector conformance`: the Idempotency Keys conformance suite. */
export const conformanceCommand: CliCommand = {
  name: "conformance",
  summary: "check an agent against the idempotency-key rules with scripted, traced client sessions",
  help: HELP,
  async run(args) {
    const { own, command } = splitAgentCommand(args);
    if (own.some((a) => a === "--stress" || a.startsWith("--stress=")))
      return (await import("./conformance-stress.js")).runStressCommand(own, command);
    let values: Record<string, string | string[] | boolean | undefined>;
    try {
      values = parseArgs({
        args: own,
        options: {
          url: { type: "string" },
          "restart-cmd": { type: "string" },
          only: { type: "string", multiple: true },
          json: { type: "boolean" },
          junit: { type: "string" },
          "tck-json": { type: "string" },
          "traces-dir": { type: "string" },
          cwd: { type: "string" },
          "case-timeout-ms": { type: "string" },
          "suite-timeout-ms": { type: "string" },
          concurrency: { type: "string" },
          verbose: { type: "boolean" },
          quiet: { type: "boolean" },
          client: { type: "boolean" },
          "client-timeout": { type: "string" },
        },
        strict: true,
        allowPositionals: false,
      }).values;
    } catch (err) {
      throw usageError("conformance", err, own);
    }
    // The client suite: its own runner and cases (conformance-client.ts).
    if (values.client === true)
      return (await import("./conformance-client.js")).runClientSuite(values, command);
    if (values["client-timeout"] !== undefined)
      throw new CliError("conformance: --client-timeout is an option of the client suite (--client)");
    const url = values.url as string | undefined;
    if ((url === undefined) === (command.length === 0))
      throw new CliError("conformance: give either --url URL or -- <agent command...> (see --help)");
    if (url !== undefined && !/^(wss?|https?):\/\//i.test(url))
      throw new CliError(`conformance: --url expects ws://, wss://, http:// or https://, got ${url}`);
    const restartCommand = values["restart-cmd"] as string | undefined;
    if (restartCommand !== undefined && url === undefined)
      throw new CliError(
        "conformance: --restart-cmd only applies with --url (on stdio the suite restarts the command itself)",
      );
    const only: CaseName[] = [];
    for (const name of ((values.only as string[] | undefined) ?? []).flatMap((v) => v.split(","))) {
      const trimmed = name.trim();
      if (!isCaseName(trimmed))
        throw new CliError(`conformance: unknown case '${trimmed}'; cases: ${CASE_NAMES.join(", ")}`);
      only.push(trimmed);
    }
    const quiet = values.quiet === true;
    const say = (line: string) => {
      if (!quiet) process.stderr.write(`conformance: ${terminalSafe(line)}\n`);
    };
    // Loaded on demand so `--help` and the other commands never pay for the suite.
    const { runConformance } = await import("../../conformance/run-conformance.js");
    const { resolveOptions } = await import("../../conformance/conformance-options.js");
    const options = resolveOptions({
      agent: url !== undefined ? { kind: "url", url, restartCommand } : { kind: "stdio", command },
      cwd: values.cwd !== undefined ? resolve(values.cwd as string) : undefined,
      tracesDir: values["traces-dir"] !== undefined ? resolve(values["traces-dir"] as string) : undefined,
      only: only.length > 0 ? only : undefined,
      caseTimeoutMs: positiveInt("--case-timeout-ms", values["case-timeout-ms"] as string | undefined),
      suiteTimeoutMs: positiveInt("--suite-timeout-ms", values["suite-timeout-ms"] as string | undefined),
      concurrency: positiveInt("--concurrency", values.concurrency as string | undefined),
      onAgentStderr:
        values.verbose === true
          ? (name, line) => process.stderr.write(`[${name}] ${terminalSafe(line)}\n`)
          : undefined,
    });
    // Trace files are created exclusively, never replaced: a folder a run already used would lose them.
    if (existsSync(join(options.tracesDir, "probe.jsonl")))
      throw new CliError(
        `conformance: --traces-dir ${options.tracesDir} already holds the traces of a run; give a new or empty folder`,
      );
    if (values["traces-dir"] === undefined) {
      const { ensurePrivateDir, PrivateFileError } = await import("../../trace/private-files.js");
      try {
        ensurePrivateDir(dirname(options.tracesDir));
      } catch (err) {
        if (err instanceof PrivateFileError) throw new CliError(`conformance: ${err.message}`, 1);
        throw err;
      }
    }
    say(`traces: ${options.tracesDir}`);
    const total = only.length > 0 ? only.length : CASE_NAMES.length;
    const done = { n: 0 };
    const report = await runConformance(options, (event) => {
      const line = progressLine(event, total, done);
      if (line) say(line);
    });
    if (values.junit !== undefined) {
      const { renderJunit } = await import("../../conformance/junit-xml.js");
      try {
        writeFileSync(values.junit as string, renderJunit(report));
      } catch (err) {
        throw new CliError(
          `conformance: cannot write --junit ${values.junit}: ${err instanceof Error ? err.message : String(err)}`,
          1,
        );
      }
    }
    if (values["tck-json"] !== undefined) {
      const { toTckReport } = await import("../../../shared/conformance/tck-report.js");
      const { tckJson } = await import("../../../shared/conformance/tck-json.js");
      try {
        writeFileSync(values["tck-json"] as string, tckJson(toTckReport(report)));
      } catch (err) {
        throw new CliError(
          `conformance: cannot write --tck-json ${values["tck-json"]}: ${err instanceof Error ? err.message : String(err)}`,
          1,
        );
      }
    }
    if (values.json === true) {
      process.stdout.write(`${terminalSafeJson(report, 2)}\n`);
    } else {
      const { renderResultTable } = await import("../../conformance/result-table.js");
      process.stdout.write(renderResultTable(report));
    }
    return report.summary.exitStatus;
  },
};
