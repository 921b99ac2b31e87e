/**
 * The agent telemetry count on a submission or attempt row of the Timeline: how many of the
 * agent's spans (`proxy --collect-agent-telemetry`) matched it, e.g. "3 spans". Nothing when none
 * did. The trees are in the Details pane.
 */

import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { spansOf, useTraceSpanMatching } from "../../model/traces/trace-span-matching.js";

export function SpanCount({ r }: { r: TimelineRow }) {
  const m = useTraceSpanMatching();
  if (!m || (r.kind !== "submission" && r.kind !== "attempt")) return null;
  const n = r.kind === "submission" ? spansOf(m, r.row) : spansOf(m, r.submission, r.number - 1);
  if (n === 0) return null;
  const label = `${n} agent telemetry span${n === 1 ? "" : "s"} during ${r.kind === "submission" ? "its attempts" : "this attempt"}`;
  return (
    <span className="tl-span-count" role="img" aria-label={label} title={label}>
      {n} span{n === 1 ? "" : "s"}
    </span>
  );
}
