/**
 * The agent's own spans (`proxy --collect-agent-telemetry`) under the attempt they happened in, as
 * an indented tree with durations. Which attempt: shared/agent-telemetry/span-matching.ts (trace
 * context first, then time). Names and attribute values came from the agent: rendered as text.
 */
import type { AttemptSpans } from "../../../shared/agent-telemetry/span-matching.js";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { useTraceSpanMatching } from "../../model/traces/trace-span-matching.js";
import { SpanItem } from "./SpanItem.js";
import { UnmatchedAgentSpans } from "./UnmatchedAgentSpans.js";

function Trees({ spans, origin }: { spans: AttemptSpans; origin: number }) {
  return (
    <ul className="agent-spans__tree">
      {spans.trees.map((t) => (
        <SpanItem key={`${t.root.span.traceId}/${t.root.span.spanId}`} node={t.root} origin={origin} />
      ))}
    </ul>
  );
}

function how(spans: AttemptSpans): string {
  const byContext = spans.trees.some((t) => t.by === "trace-context");
  const byTime = spans.trees.some((t) => t.by === "time");
  if (byContext && byTime) return "matched by trace context and by time";
  return byContext ? "matched by the traceparent the request carried" : "matched by time on its connection";
}

/**
 * The agent spans of one attempt (`attempt` given) or of every attempt of a submission. Renders
 * nothing when the trace has no agent spans at all.
 */
export function AgentSpans({ submission, attempt }: { submission: Submission; attempt?: number }) {
  // One matching over every submission of the trace (trace-span-matching.ts), redone when it changed.
  const m = useTraceSpanMatching();
  if (!m) return null;
  const { matching, spanCount } = m;
  const indices = attempt === undefined ? submission.attempts.map((_, i) => i) : [attempt];
  const parts = indices.map((i) => ({
    i,
    spans: matching.byAttempt.get(`s${submission.id}.a${i}`),
    origin: submission.attempts[i]?.sentAt ?? 0,
  }));
  const total = parts.reduce((n, p) => n + (p.spans?.count ?? 0), 0);
  return (
    <>
      <section className="agent-spans" aria-label="Agent telemetry">
        <h3>Agent telemetry</h3>
        {total === 0 ? (
          <p className="muted">
            The agent sent {spanCount} span{spanCount === 1 ? "" : "s"} in this trace, none during{" "}
            {attempt === undefined ? "these attempts" : "this attempt"}.
          </p>
        ) : null}
        {parts.map((p) =>
          p.spans ? (
            <div key={p.i}>
              <p className="muted">
                {attempt === undefined ? `Attempt ${p.i + 1}: ` : ""}
                {p.spans.count} agent span{p.spans.count === 1 ? "" : "s"}, {how(p.spans)}; times from the
                request.
              </p>
              <Trees spans={p.spans} origin={p.origin} />
            </div>
          ) : null,
        )}
      </section>
      <UnmatchedAgentSpans />
    </>
  );
}
