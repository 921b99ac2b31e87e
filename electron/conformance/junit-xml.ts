/** The JUnit XML report of a conformance run: one `<testcase>` per case, for CI dashboards. */

import type { AnyCaseName, ConformanceReport } from "../../shared/conformance/conformance-result.js";

/**
 * Characters XML 1.0 carries but a dashboard would act on instead of showing: DEL, C1 controls,
 * the bidirectional marks, embeddings, overrides and isolates (a right-to-left override displays
 * the rest of a failure message reversed), the line and paragraph separators.
 */
const INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One such character written out as text: `\x85`, `\u202e` (as the CLI's terminal output shows it). */
function writtenOut(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Escapes text for XML attributes and content: drops characters XML 1.0 cannot carry (U+FFFD
 * instead) and writes out controls and bidirectional overrides as text (`\u202e`), so no wire text
 * reaches a CI dashboard raw.
 */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(INVISIBLE, writtenOut)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Renders the report as JUnit XML (informative cases that fail are reported as skipped, so they never fail a build). */
export function renderJunit(report: ConformanceReport<AnyCaseName>): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  // An agent that could not be probed gets one failing `probe` testcase with the cause; its cases are skipped as not run.
  const probeFailed = report.probe.status !== "v2";
  const cls = report.target.kind === "client" ? "conformance-client" : "conformance";
  const tests = report.cases.length + (probeFailed ? 1 : 0);
  const failures =
    report.cases.filter((c) => c.status === "fail" && c.required).length + (probeFailed ? 1 : 0);
  const skipped = report.cases.filter(
    (c) => c.status === "skip" || c.status === "not-run" || (c.status === "fail" && !c.required),
  ).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="acp-retry-inspector conformance" tests="${tests}" failures="${failures}" skipped="${skipped}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="ACP v2 idempotency keys" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${xmlEscape(report.startedAt)}">`,
    "    <properties>",
    `      <property name="traces" value="${xmlEscape(report.tracesDir)}"/>`,
    `      <property name="probe" value="${xmlEscape(report.probe.status === "v2" ? "v2" : (report.probe.problem ?? report.probe.status))}"/>`,
    "    </properties>",
  ];
  if (probeFailed) {
    const { probe } = report;
    const details = [
      probe.problem ?? probe.status,
      ...(probe.startup?.stderr ?? []),
      ...(probe.traceFile ? [`trace: ${probe.traceFile}`] : []),
    ];
    out.push(
      `    <testcase classname="${cls}" name="probe" time="0.000">`,
      `      <failure message="${xmlEscape(probe.problem ?? probe.status)}"/>`,
      `      <system-out>${xmlEscape(details.join("\n"))}</system-out>`,
      "    </testcase>",
    );
  }
  for (const c of report.cases) {
    out.push(`    <testcase classname="${cls}" name="${xmlEscape(c.name)}" time="${seconds(c.durationMs)}">`);
    if (c.status === "fail" && c.required) out.push(`      <failure message="${xmlEscape(c.reason)}"/>`);
    else if (c.status === "skip" || c.status === "not-run")
      out.push(`      <skipped message="${xmlEscape(c.reason)}"/>`);
    else if (c.status === "fail")
      out.push(`      <skipped message="${xmlEscape(`informative case failed: ${c.reason}`)}"/>`);
    const details = [c.title, `RFD: ${c.rule}`, c.reason, ...(c.traceFile ? [`trace: ${c.traceFile}`] : [])];
    out.push(`      <system-out>${xmlEscape(details.join("\n"))}</system-out>`, "    </testcase>");
  }
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}
