/**
 * The agent spans of the shown trace matched to its attempts once per published view, for every
 * place that shows them (the Timeline's span counts, the Details pane's trees, the spans outside
 * any attempt). One matching over all submissions, so a tree is counted under one attempt only.
 */
import {
  type AttemptWindow,
  attemptWindows,
  matchAgentSpans,
  type SpanMatching,
} from "../../../shared/agent-telemetry/span-matching.js";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import type { LoadedTrace } from "./loaded-trace.js";

/** One trace's matching and what it was made from. */
export interface TraceSpanMatching {
  readonly loaded: LoadedTrace;
  readonly windows: readonly AttemptWindow[];
  readonly matching: SpanMatching;
  /** Agent spans in the trace. */
  readonly spanCount: number;
}

interface Cached {
  readonly submissions: readonly Submission[];
  readonly spans: number;
  readonly result: TraceSpanMatching;
}

const cache = new WeakMap<LoadedTrace, Cached>();

/** The matching of a trace's spans to its submissions' attempts; null without agent spans. */
export function traceSpanMatching(
  loaded: LoadedTrace | undefined,
  submissions: readonly Submission[],
): TraceSpanMatching | null {
  if (!loaded || loaded.agentSpans.length === 0) return null;
  const hit = cache.get(loaded);
  const spans = loaded.agentSpans.length;
  if (hit && hit.submissions === submissions && hit.spans === spans) return hit.result;
  const windows = attemptWindows(submissions, (seq) => loaded.recordBySeq(seq));
  const result = {
    loaded,
    windows,
    matching: matchAgentSpans(windows, loaded.agentSpans),
    spanCount: spans,
  };
  cache.set(loaded, { submissions, spans, result });
  return result;
}

/** The shown trace's matching, redone when the view or its agent spans changed. */
export function useTraceSpanMatching(): TraceSpanMatching | null {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const submissions = useInspector((s) => s.view.submissions);
  // The change signal for spans that arrived without a new submission (the loaded trace's array grows in place).
  useInspector((s) => s.view.records);
  return traceSpanMatching(traceId === undefined ? undefined : catalog.get(traceId), submissions);
}

/** Agent spans matched to one attempt (`s<id>.a<index>`), or to every attempt of a submission. */
export function spansOf(m: TraceSpanMatching | null, submission: Submission, attempt?: number): number {
  if (!m) return 0;
  if (attempt !== undefined) return m.matching.byAttempt.get(`s${submission.id}.a${attempt}`)?.count ?? 0;
  let n = 0;
  for (let i = 0; i < submission.attempts.length; i++)
    n += m.matching.byAttempt.get(`s${submission.id}.a${i}`)?.count ?? 0;
  return n;
}
