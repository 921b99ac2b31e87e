/**
 * The agent's spans that matched no attempt (`proxy --collect-agent-telemetry`), shown under the
 * Details pane whatever is selected, each tree with why it matched nothing: its trace id was in no
 * request's `traceparent`, and it started outside every attempt's time on its connection. Names and
 * attribute values came from the agent: rendered as text.
 */
import {
  CLOCK_SLACK_MS,
  type NoMatchReason,
  noMatchReason,
} from "../../../shared/agent-telemetry/span-matching.js";
import { useTraceSpanMatching } from "../../model/traces/trace-span-matching.js";
import { SpanItem } from "./SpanItem.js";

function gapText(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** Why one tree matched nothing, in words. */
export function noMatchWords(r: NoMatchReason): string {
  const context = "no trace context (its trace id was in no request's traceparent)";
  const where = r.conn === null ? "" : ` on connection #${r.conn}`;
  if (r.candidates === 0 || r.gapMs === null)
    return `${context}, and no prompt attempt${where} to match by time`;
  const nearest =
    r.side === "before"
      ? `${gapText(r.gapMs)} before the nearest attempt${where} was sent`
      : `${gapText(r.gapMs)} after the nearest attempt${where} was answered`;
  return `${context}, and outside every attempt's time: it started ${nearest} (${CLOCK_SLACK_MS} ms of slack allowed)`;
}

/** The spans outside any attempt, or nothing when every span matched one (or there are none). */
export function UnmatchedAgentSpans() {
  const m = useTraceSpanMatching();
  if (!m || m.matching.unmatched.length === 0) return null;
  const roots = m.matching.unmatched;
  let count = 0;
  const size = (n: (typeof roots)[number]): number => 1 + n.children.reduce((k, c) => k + size(c), 0);
  for (const r of roots) count += size(r);
  return (
    <section className="agent-spans agent-spans--unmatched" aria-label="Agent spans outside any attempt">
      <h3>Agent spans outside any attempt</h3>
      <p className="muted">
        {count} of the agent&apos;s {m.spanCount} span{m.spanCount === 1 ? "" : "s"} matched no prompt
        attempt; they stay in the trace (and the Records tab). Times from the start of each tree&apos;s first
        span.
      </p>
      <ul className="agent-spans__tree">
        {roots.map((root) => (
          <li key={`${root.span.traceId}/${root.span.spanId}`} className="agent-spans__unmatched">
            <p className="agent-spans__why">{noMatchWords(noMatchReason(root.span, m.windows))}.</p>
            <ul className="agent-spans__tree">
              <SpanItem node={root} origin={root.span.startMs} />
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
