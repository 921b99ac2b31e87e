/** The text report of a conformance run: one row per case (case, result, reason, trace file) and a summary line. */

import type {
  AnyCaseName,
  CaseResult,
  ConformanceReport,
} from "../../shared/conformance/conformance-result.js";
import { terminalSafe } from "../platform/terminal-text.js";

const RESULT_LABEL: Record<CaseResult["status"], string> = {
  pass: "PASS",
  fail: "FAIL",
  skip: "SKIP",
  "not-run": "NOT RUN",
};

/** The label of a case's result, e.g. `FAIL`, `fail (info)` or, for an advisory client case, `fail (advisory)`. */
export function resultLabel(result: CaseResult<AnyCaseName>): string {
  const label = RESULT_LABEL[result.status];
  if (result.required) return label;
  // A client case that is not required checks an ADVISORY requirement (a SHOULD of the RFD).
  const main = result.outcomes[0]?.id;
  return `${label.toLowerCase()} (${main?.startsWith("client.") ? "advisory" : "info"})`;
}

/**
 * Renders the report as an aligned text table; text from the agent is escaped (terminal safe, one
 * line per row). When the probe failed or the agent is not v2, no case ran: the cause is said once
 * (with the agent's first stderr lines), and there is no table.
 */
export function renderResultTable(report: ConformanceReport<AnyCaseName>): string {
  if (report.probe.status !== "v2") return renderNotRun(report);
  const rows = report.cases.map((c) =>
    [c.name, resultLabel(c), c.reason, c.traceFile ?? "-"].map((cell) => terminalSafe(cell)),
  );
  const header = ["case", "result", "reason", "trace"];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => Math.min((r[i] ?? "").length, i === 2 ? 100 : 200))),
  );
  const cell = (text: string, i: number) => {
    const width = widths[i] ?? 0;
    const shown = i === 2 && text.length > width ? `${text.slice(0, width - 1)}…` : text;
    return shown.padEnd(width);
  };
  const line = (r: string[]) => r.map(cell).join("  ").trimEnd();
  const { summary, probe } = report;
  const agent = probe.info?.name ? `${probe.info.name} ${probe.info.version ?? ""}`.trim() : "the agent";
  const lines = [
    `conformance of ${agent} (${describeTarget(report)})`,
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
    `${summary.passed} passed, ${summary.failed} failed (${summary.requiredFailed} required), ${summary.skipped} skipped${summary.notRun > 0 ? `, ${summary.notRun} not run` : ""} in ${(report.durationMs / 1000).toFixed(1)} s: ${summary.ok ? "CONFORMANT" : "NOT CONFORMANT"}`,
    `traces: ${report.tracesDir}`,
  ];
  return `${lines.map((l) => terminalSafe(l)).join("\n")}\n`;
}

function renderNotRun(report: ConformanceReport<AnyCaseName>): string {
  const { probe, summary } = report;
  const agent = probe.info?.name ? `${probe.info.name} ${probe.info.version ?? ""}`.trim() : "the agent";
  const lines = [
    `conformance of ${agent} (${describeTarget(report)})`,
    `${probe.status === "not-v2" ? "NOT RUN" : report.target.kind === "client" ? "CLIENT DID NOT REACH THE AGENT" : "AGENT DID NOT START"}: ${probe.problem ?? ""}`,
    // The problem line quotes the first stderr line; the others follow it.
    ...(probe.startup && probe.startup.stderr.length > 1
      ? ["more of the agent's stderr:", ...probe.startup.stderr.slice(1).map((l) => `  ${l}`)]
      : []),
    ...(probe.traceFile ? [`probe trace: ${probe.traceFile}`] : []),
    `${summary.notRun} case(s) not run: ${summary.ok ? "CONFORMANT" : "NOT CONFORMANT"}`,
  ];
  return `${lines.map((l) => terminalSafe(l)).join("\n")}\n`;
}

function describeTarget(report: ConformanceReport<AnyCaseName>): string {
  const t = report.target;
  if (t.kind === "client") return `client: ${t.command.join(" ")}`;
  return t.kind === "stdio" ? `stdio: ${t.command.join(" ")}` : t.url;
}
