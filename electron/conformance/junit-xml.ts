/** The JUnit XML report of a conformance run: one `<testcase>` per case, for CI dashboards. */

import type { ConformanceReport } from "../../shared/conformance/conformance-result.js";

/** Escapes text for XML attributes and content (and drops characters XML 1.0 cannot carry). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Renders the report as JUnit XML (informative cases that fail are reported as skipped, so they never fail a build). */
export function renderJunit(report: ConformanceReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const failures = report.cases.filter((c) => c.status === "fail" && c.required).length;
  const skipped = report.cases.filter(
    (c) => c.status === "skip" || (c.status === "fail" && !c.required),
  ).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="acp-retry-inspector conformance" tests="${report.cases.length}" failures="${failures}" skipped="${skipped}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="ACP v2 idempotency keys" tests="${report.cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${xmlEscape(report.startedAt)}">`,
    "    <properties>",
    `      <property name="traces" value="${xmlEscape(report.tracesDir)}"/>`,
    `      <property name="probe" value="${xmlEscape(report.probe.status === "v2" ? "v2" : (report.probe.problem ?? report.probe.status))}"/>`,
    "    </properties>",
  ];
  for (const c of report.cases) {
    out.push(
      `    <testcase classname="conformance" name="${xmlEscape(c.name)}" time="${seconds(c.durationMs)}">`,
    );
    if (c.status === "fail" && c.required) out.push(`      <failure message="${xmlEscape(c.reason)}"/>`);
    else if (c.status === "skip") out.push(`      <skipped message="${xmlEscape(c.reason)}"/>`);
    else if (c.status === "fail")
      out.push(`      <skipped message="${xmlEscape(`informative case failed: ${c.reason}`)}"/>`);
    const details = [c.title, `RFD: ${c.rule}`, c.reason, ...(c.traceFile ? [`trace: ${c.traceFile}`] : [])];
    out.push(`      <system-out>${xmlEscape(details.join("\n"))}</system-out>`, "    </testcase>");
  }
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}
