/**
 * The agent's own spans (`proxy --collect-agent-telemetry`) under the attempt they happened in, as
 * an indented tree with durations. Which attempt: shared/agent-telemetry/span-matching.ts (trace
 * context first, then time). Names and attribute values came from the agent: rendered as text.
 */
import { useMemo } from "react";
import {
  type AttemptSpans,
  attemptWindows,
  matchAgentSpans,
  type SpanNode,
} from "../../shared/agent-telemetry/span-matching.js";
import type { Submission } from "../../shared/analyzer/timeline-model.js";
import { Badge } from "../components/Badge.js";
import { useInspector } from "../store/inspector-store.js";
import type { LoadedTrace } from "../traces/loaded-trace.js";

/** Attributes shown per span; the trace file has all of them. */
const SHOWN_ATTRIBUTES = 8;

function ms(n: number): string {
  return n >= 100 ? `${Math.round(n)} ms` : `${Math.round(n * 10) / 10} ms`;
}

function SpanItem({ node, origin }: { node: SpanNode; origin: number }) {
  const s = node.span;
  const attributes = Object.entries(s.attributes ?? {});
  return (
    <li className="agent-span">
      <span className="agent-span__name">{s.name}</span>{" "}
      <span className="agent-span__time">
        {ms(Math.max(0, s.endMs - s.startMs))}, from +{ms(Math.max(0, s.startMs - origin))}
      </span>
      {s.status === "error" ? (
        <>
          {" "}
          <Badge tone="error" title={s.statusMessage}>
            error
          </Badge>
        </>
      ) : null}
      {attributes.length > 0 ? (
        <span className="agent-span__attrs">
          {attributes
            .slice(0, SHOWN_ATTRIBUTES)
            .map(([k, v]) => `${k}=${Array.isArray(v) ? JSON.stringify(v) : String(v)}`)
            .join(" · ")}
          {attributes.length > SHOWN_ATTRIBUTES ? ` · +${attributes.length - SHOWN_ATTRIBUTES} more` : ""}
        </span>
      ) : null}
      {node.children.length > 0 ? (
        <ul>
          {node.children.map((c) => (
            <SpanItem key={c.span.spanId} node={c} origin={origin} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

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
export function AgentSpans({
  submission,
  attempt,
  session,
}: {
  submission: Submission;
  attempt?: number;
  session: LoadedTrace | undefined;
}) {
  // Re-rendered on every published view; the matching is redone only when records arrived.
  const records = useInspector((s) => s.view.records);
  const spanCount = session?.agentSpans.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: records and spanCount say when the session's arrays (mutated in place) grew
  const matching = useMemo(() => {
    if (!session || spanCount === 0) return null;
    const windows = attemptWindows([submission], (seq) => session.recordBySeq(seq));
    return matchAgentSpans(windows, session.agentSpans);
  }, [session, submission, spanCount, records]);
  if (!matching) return null;
  const indices = attempt === undefined ? submission.attempts.map((_, i) => i) : [attempt];
  const parts = indices.map((i) => ({
    i,
    spans: matching.byAttempt.get(`s${submission.id}.a${i}`),
    origin: submission.attempts[i]?.sentAt ?? 0,
  }));
  const total = parts.reduce((n, p) => n + (p.spans?.count ?? 0), 0);
  return (
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
  );
}
