/** `conformance --client -- <client command>`: the client suite's CLI side (options, progress, output). */

import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  AGENT_PLACEHOLDER,
  hasAgentPlaceholder,
} from "../../../shared/conformance/client/agent-placeholder.js";
import {
  CLIENT_CASE_NAMES,
  CLIENT_CASES,
  isClientCaseName,
} from "../../../shared/conformance/client/client-case-catalogue.js";
import type { ClientCaseName, ConformanceProgress } from "../../../shared/conformance/conformance-result.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { CliError } from "../command.js";

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} expects a positive integer, got ${value}`);
  return n;
}

function progressLine(event: ConformanceProgress<ClientCaseName>, total: number, done: { n: number }) {
  switch (event.kind) {
    case "probe":
      return event.probe.status === "v2"
        ? `client speaks v2${event.probe.info?.name ? ` (${event.probe.info.name})` : ""}; judging ${total} case(s)`
        : `${event.probe.problem ?? "the client cannot run v2 sessions"}`;
    case "case-start":
      return undefined;
    case "case-end": {
      const r = event.result;
      if (r.status === "not-run") return undefined;
      done.n++;
      const info = r.required ? "" : " (advisory)";
      return `[${done.n}/${total}] ${r.name}: ${r.status.toUpperCase()}${info}: ${r.reason}`;
    }
  }
}

/** Runs the client suite with the options `conformance` parsed; resolves to the exit status. */
export async function runClientSuite(
  values: Record<string, string | string[] | boolean | undefined>,
  command: readonly string[],
): Promise<number> {
  if (command.length === 0)
    throw new CliError(
      "conformance --client: give the client command after --, with {agent} where it takes its agent command",
    );
  if (!hasAgentPlaceholder(command))
    throw new CliError(
      `conformance --client: the client command has no ${AGENT_PLACEHOLDER}: put ${AGENT_PLACEHOLDER} where the client takes its agent command (e.g. demo-client --prompt hi -- ${AGENT_PLACEHOLDER}, or acpx --agent=${AGENT_PLACEHOLDER} exec hi)`,
    );
  for (const flag of ["url", "restart-cmd"])
    if (values[flag] !== undefined)
      throw new CliError(`conformance --client: --${flag} does not apply to the client suite`);
  const only: ClientCaseName[] = [];
  for (const name of ((values.only as string[] | undefined) ?? []).flatMap((v) => v.split(","))) {
    const trimmed = name.trim();
    if (!isClientCaseName(trimmed))
      throw new CliError(
        `conformance --client: unknown case '${trimmed}'; cases: ${CLIENT_CASE_NAMES.join(", ")}`,
      );
    only.push(trimmed);
  }
  const quiet = values.quiet === true;
  const say = (line: string) => {
    if (!quiet) process.stderr.write(`conformance: ${terminalSafe(line)}\n`);
  };
  const { runClientConformance } = await import("../../conformance/client/run-client-conformance.js");
  const { defaultTraceDir } = await import("../../trace/default-trace-path.js");
  const { runFolderName } = await import("../../conformance/conformance-options.js");
  const tracesDir =
    values["traces-dir"] !== undefined
      ? resolve(values["traces-dir"] as string)
      : join(defaultTraceDir(), runFolderName().replace(/^conformance-/, "conformance-client-"));
  if (existsSync(join(tracesDir, "plain.jsonl")))
    throw new CliError(
      `conformance --client: --traces-dir ${tracesDir} already holds the traces of a run; give a new or empty folder`,
    );
  if (values["traces-dir"] === undefined) {
    const { ensurePrivateDir, PrivateFileError } = await import("../../trace/private-files.js");
    try {
      ensurePrivateDir(dirname(tracesDir));
    } catch (err) {
      if (err instanceof PrivateFileError) throw new CliError(`conformance: ${err.message}`, 1);
      throw err;
    }
  }
  say(`traces: ${tracesDir}`);
  const total = only.length > 0 ? only.length : CLIENT_CASES.length;
  const done = { n: 0 };
  const report = await runClientConformance(
    {
      clientCommand: command,
      cwd: values.cwd !== undefined ? resolve(values.cwd as string) : process.cwd(),
      tracesDir,
      only: only.length > 0 ? only : undefined,
      caseTimeoutMs: positiveInt("--case-timeout-ms", values["case-timeout-ms"] as string | undefined),
      clientTimeoutMs: positiveInt("--client-timeout", values["client-timeout"] as string | undefined),
      concurrency: positiveInt("--concurrency", values.concurrency as string | undefined),
      onClientOutput:
        values.verbose === true
          ? (run, line) => process.stderr.write(`[${run}] ${terminalSafe(line)}\n`)
          : undefined,
    },
    (event) => {
      const line = progressLine(event, total, done);
      if (line) say(line);
    },
  );
  const write = (flag: string, text: string) => {
    try {
      writeFileSync(values[flag] as string, text);
    } catch (err) {
      throw new CliError(
        `conformance: cannot write --${flag} ${values[flag]}: ${err instanceof Error ? err.message : String(err)}`,
        1,
      );
    }
  };
  if (values.junit !== undefined) {
    const { renderJunit } = await import("../../conformance/junit-xml.js");
    write("junit", renderJunit(report));
  }
  if (values["tck-json"] !== undefined) {
    const { toTckReport } = await import("../../../shared/conformance/tck-report.js");
    const { tckJson } = await import("../../../shared/conformance/tck-json.js");
    write("tck-json", tckJson(toTckReport(report)));
  }
  if (values.json === true) process.stdout.write(`${terminalSafeJson(report, 2)}\n`);
  else {
    const { renderResultTable } = await import("../../conformance/result-table.js");
    process.stdout.write(renderResultTable(report));
  }
  return report.summary.exitStatus;
}
