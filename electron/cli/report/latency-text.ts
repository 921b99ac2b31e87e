/** The "Latency per method" section of `analyze`'s text report (`shared/analyzer/latency.ts`). */
import type { LatencyReport, LatencyStats } from "../../../shared/analyzer/latency.js";
import { durationText } from "../../../shared/analyzer/waterfall.js";

/** How many connection×method rows the text lists (`--json` has them all). */
const MAX_CONNECTION_ROWS = 50;

const ms = (v: number | null) => (v === null ? "-" : durationText(v));

/** `p50 12 ms  p95 40 ms  p99 40 ms  max 41 ms  (5 answered of 6; 1 dropped by the inspector, ...)`. */
function statsText(s: LatencyStats): string {
  const apart = [
    s.dropped > 0 &&
      `${s.dropped} answer(s) dropped by the inspector: the agent's time, the client never got them`,
    s.inspector > 0 && `${s.inspector} sent by the inspector`,
    s.noAnswer > 0 && `${s.noAnswer} with no answer, not counted`,
  ].filter(Boolean);
  return `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}  (${s.samples} answered of ${s.requests}${apart.length ? `; ${apart.join("; ")}` : ""})`;
}

/** The section's lines: per method (slowest p95 first), then per connection and method (`renderReport` escapes each line). */
export function latencyLines(report: LatencyReport): string[] {
  const out = ["", "Latency per method (request to answer, as the tap saw them)"];
  if (report.byMethod.length === 0) out.push("  no requests with timestamps");
  for (const m of report.byMethod) out.push(`  ${m.method}  ${statsText(m)}`);
  const conns = new Set(report.byConnection.map((c) => c.conn));
  if (conns.size > 1) {
    out.push("", "Latency per connection");
    for (const c of report.byConnection.slice(0, MAX_CONNECTION_ROWS))
      out.push(`  conn #${c.conn} ${c.method}  ${statsText(c)}`);
    if (report.byConnection.length > MAX_CONNECTION_ROWS)
      out.push(`  … ${report.byConnection.length - MAX_CONNECTION_ROWS} more (analyze --json has them all)`);
  }
  if (report.overflow > 0)
    out.push(`  ${report.overflow} request(s) of methods past the first groups are not broken out`);
  if (report.negative > 0)
    out.push(
      `  ${report.negative} answer(s) timestamped before their request (a clock went back) are left out`,
    );
  return out;
}
